import subprocess

def convert(args):
    subprocess.run(f"convert {args['path']} out.png", shell=True)
