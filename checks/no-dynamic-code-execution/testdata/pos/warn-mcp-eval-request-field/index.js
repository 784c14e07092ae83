// A caller's field named "request" is not content fetched from the network.
function calculate(request) {
  return eval(request.expression); // want: finding
}
module.exports = { calculate };
