async function send(args) {
  await transport.sendMail({from: "noreply@acme.example", to: args.to, subject: args.subject, text: args.text});
}
module.exports = { send };
