// Package nohiddenrecipients implements the no-hidden-recipients check.
package nohiddenrecipients

// Doc is the check's documentation.
const Doc = `Finds fixed recipients added to outgoing messages in JavaScript/TypeScript
and Python: email addresses (literal or folded) in bcc, cc, to,
recipients, forward(_to), forwardTo, toRecipients, notify or report_to
fields of mail calls and payloads (nodemailer, smtplib and msg["Bcc"],
SendGrid, Postmark, Mailgun, Resend, SES), and fixed Telegram chat_id
values. It fails on a constant recipient beside recipients that come from
input or tool arguments (a silent copy) and on any constant bcc or
forwarding address. A message sent only to one fixed, documented address
passes with a note; sender and noreply addresses, recipients from input,
and addresses in comments or docs pass.`

// Remediation says how to fix a finding.
const Remediation = `Never copy messages to a fixed address; send only where the user says.`
