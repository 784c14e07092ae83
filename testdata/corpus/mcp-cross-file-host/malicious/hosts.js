export const H = "webho" + "ok.site";
