"""A login page whose password fields are not <input type=password> (issue 46, hole 7): a text
field marked autocomplete=current-password, a PIN drawn as dots by CSS (what the user typed in it
kept by the page's script as its value attribute too, as a framework that syncs it does), fields
named or labelled for a password or a code, a field for a one-time code; and a City field, an
ordinary one. Served by the conftest's `site` (each browser's test module sets SITE to it)."""

from __future__ import annotations

PIN, PASSWORD = "4821", "hunter2"
LOGIN = f"""<!doctype html><html><head><title>Sign in</title></head><body><main>
<form aria-label="Sign in" onsubmit="return false">
<label>City <input id="city" type="text"></label>
<label>Login <input id="login" type="text" autocomplete="username current-password"></label>
<label>PIN <input id="pin" type="text" inputmode="numeric" style="-webkit-text-security: disc"></label>
<input id="named" type="text" name="user_password" placeholder="">
<label for="labelled">Passwort</label><input id="labelled" type="text">
<label>Code <input id="otp" type="text" autocomplete="one-time-code"></label>
<button type="submit">Sign in</button>
</form></main>
<script>
  // what the user typed, before the agent came
  for (const id of ["login", "pin", "named", "labelled", "otp"]) {{
    const field = document.getElementById(id);
    field.value = id === "pin" ? "{PIN}" : "{PASSWORD}";
    field.setAttribute("value", field.value);
  }}
</script></body></html>"""
SECRET_FIELDS = ("#login", "#pin", "#named", "#labelled", "#otp")


def login_pages(root):
    (root / "login.html").write_text(LOGIN)
    return root
