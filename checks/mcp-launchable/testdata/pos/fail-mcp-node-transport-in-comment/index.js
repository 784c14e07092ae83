// TODO: connect a StdioServerTransport here.
const note = "new StdioServerTransport()";
module.exports = { note };
