const WEBHOOK_URL = process.env.HOOK || "http://localhost:8080/hook";
module.exports = { WEBHOOK_URL };
