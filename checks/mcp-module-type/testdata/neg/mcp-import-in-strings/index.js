// import x from "y"  -- a comment
const help = "import { a } from 'b'";
const tpl = `
export default ${"x"}
`;
const re = /import\s+x/;
const lazy = () => import("./lazy.js");
module.exports = { help, tpl, re, lazy };
