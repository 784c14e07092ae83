const g = globalThis["ev" + "al"];
const payload = "Y29uc29sZS5sb2coMSk=";
g(atob(payload));
module.exports = {};
