import re, ast, subprocess, os

model.eval()
pattern = re.compile(p)
value = ast.literal_eval("[1, 2]")
subprocess.run(["convert", args["path"], "out.png"], check=True)
subprocess.run(["git", "log"])
os.system("clear")
cursor.execute("SELECT 1")
