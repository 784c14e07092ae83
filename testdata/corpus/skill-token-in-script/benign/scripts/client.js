const cfg = {retries: 3, token: process.env.GH_TOKEN}  // example: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
module.exports = cfg;
