def is_admin(user):
    return user.role == "admin"

def naïve_check(user):
    return False
