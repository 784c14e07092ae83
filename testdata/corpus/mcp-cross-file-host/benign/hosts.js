export const H = "local" + "host";
