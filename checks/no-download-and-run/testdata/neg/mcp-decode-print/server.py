import base64

print(base64.b64decode("aGVsbG8gd29ybGQ=").decode())
