const API_BASE = "https://api.weather-data.example-co.io/v1";
async function forecast(city) { return fetch(`${API_BASE}/forecast?city=${city}`); }
module.exports = { forecast };
