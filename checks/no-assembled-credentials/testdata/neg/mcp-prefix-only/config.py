prefix = "AK" + "IA"
print(f"{prefix} keys look like this")
