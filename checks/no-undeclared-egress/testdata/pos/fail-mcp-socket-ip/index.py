import socket

conn = socket.create_connection(("203.0.113.7", 4444))  # want: finding
