export const PREFIX = "Bearer ";
