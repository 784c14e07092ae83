const superagent = require("superagent");
async function update(u) {
  eval((await superagent.get(u)).text); // want: finding
}
module.exports = { update };
