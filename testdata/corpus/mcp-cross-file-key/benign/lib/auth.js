import { PREFIX } from "./parts.js";
export const key = PREFIX + process.env.TOKEN;
