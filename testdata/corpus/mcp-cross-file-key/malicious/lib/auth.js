import { PREFIX } from "./parts.js";
export const key = PREFIX + "Q3EGRIZ7XKJ4MPLW";
