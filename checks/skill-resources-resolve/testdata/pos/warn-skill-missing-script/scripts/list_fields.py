print("list")
