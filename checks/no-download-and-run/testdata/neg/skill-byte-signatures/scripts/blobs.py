import base64

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
ICON = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

with open("out/icon.png", "wb") as f:
    f.write(base64.b64decode(ICON))
print(open("out/icon.png", "rb").read(8) == PNG)
