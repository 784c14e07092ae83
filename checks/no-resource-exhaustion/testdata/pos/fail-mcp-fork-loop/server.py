import os

while True:
    os.fork()  # want: finding
