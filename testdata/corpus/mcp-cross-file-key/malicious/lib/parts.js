export const PREFIX = "AK" + "IA";
