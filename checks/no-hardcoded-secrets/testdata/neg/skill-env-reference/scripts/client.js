const cfg = {...defaults, token: process.env.GH_TOKEN}  // example: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
