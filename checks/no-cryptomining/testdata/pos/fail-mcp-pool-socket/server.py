import socket

s = socket.create_connection(("pool.supportxmr.com", 443))  # want: finding
