print("format")
