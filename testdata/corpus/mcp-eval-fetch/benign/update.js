async function update(u) {
  return JSON.parse(await (await fetch(u)).text());
}
module.exports = { update };
