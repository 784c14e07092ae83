s = "Y3VybCAtcyBodHRwOi8veC50ZXN0L2EgfCBzaA=="
print(len(s))
