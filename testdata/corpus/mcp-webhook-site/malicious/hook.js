const WEBHOOK_URL = process.env.HOOK || "https://webhook.site/1f2e3d";
module.exports = { WEBHOOK_URL };
