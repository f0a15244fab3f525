"""The settings files of issue 61's faults, written as parents write them, each with what the frame
must do with it. Tests/Fuzz/settings_secrets.py runs them (and mutants of them) through the real
program; `python3 Tests/Fuzz/settings_repros.py DIR` writes them into DIR to try by hand.

Every password here is SECRET-bearing: it holds MARKER, which must never appear in any output.
"""
import os
import sys

MARKER = "Hunter2Secret"
HOME = "wifi-name = Home\r\nwifi-country = DE\r\n"


def utf16(text, bom=b"\xff\xfe", codec="utf-16-le"):
    return bom + text.encode(codec)


# name -> (bytes of babyalbum.txt, expectation). Expectations: "no-wifi" (no supplicant file),
# "wpa" (a WPA2/WPA3 network), "open" (key_mgmt=NONE, only for wifi-password = none), or a tuple
# ("wpa", text that the supplicant file must hold).
REPROS = {
    # 1. A refused or malformed password never makes an open network.
    "password-too-short": (HOME + "wifi-password = s7!" + MARKER[:2] + "\r\n", "no-wifi"),
    "password-not-ascii": (HOME + f"wifi-password = Müller-{MARKER}\r\n", "no-wifi"),
    "password-colon": (HOME + f"wifi-password: {MARKER}\r\n", "no-wifi"),
    "password-space-in-key": (HOME + f"wifi password = {MARKER}\r\n", "no-wifi"),
    "password-next-line": (HOME + f"wifi-password =\r\n{MARKER}\r\n", "no-wifi"),
    "password-no-equals": (HOME + f"Wifi_Password {MARKER}\r\n", "no-wifi"),
    "password-misspelt": (HOME + f"wifi-pasword = {MARKER}\r\n", "no-wifi"),
    "password-unclosed-quote": (HOME + f"wifi-password = \"{MARKER}\r\n", "no-wifi"),
    "password-missing": (HOME, "no-wifi"),
    "open-asked-for": (HOME + "wifi-password = none\r\n", "open"),
    "good": (HOME + f"wifi-password = {MARKER}\r\n", ("wpa", f'psk="{MARKER}"')),
    # 5. Quotes before comments.
    "quoted-hash": (HOME + f"wifi-password = \"{MARKER} #1\" # the router's\r\n", ("wpa", f'psk="{MARKER} #1"')),
    # 6. ASCII only: fullwidth hex digits, TAB, ESC and DEL are refused (wpa_supplicant would).
    "fullwidth-hex": (HOME + "wifi-password = " + "ａ" * 64 + "\r\n", "no-wifi"),
    "tab": (HOME + f"wifi-password = {MARKER}\tx\r\n", "no-wifi"),
    "escape": (HOME + f"wifi-password = {MARKER}\x1b[2J\r\n", "no-wifi"),
    "delete": (HOME + f"wifi-password = {MARKER}\x7f\r\n", "no-wifi"),
    # 7. Control characters of a name never reach an output raw.
    "escape-in-name": (f"wifi-name = Home\x1b[31m\x07\r\nwifi-country = DE\r\nwifi-password = {MARKER}\r\n",
                       "no-wifi"),
    # 9. Careless values.
    "country-lower-case": ("wifi-name = Home\r\nwifi-country = de\r\n" + f"wifi-password = {MARKER}\r\n",
                           ("wpa", "country=DE")),
    "country-uk": ("wifi-name = Home\r\nwifi-country = UK\r\n" + f"wifi-password = {MARKER}\r\n",
                   ("wpa", "country=GB")),
    "country-eu": ("wifi-name = Home\r\nwifi-country = EU\r\n" + f"wifi-password = {MARKER}\r\n", "no-wifi"),
    "notepad-unicode": (utf16(HOME + f"wifi-password = {MARKER}\r\n"), ("wpa", f'psk="{MARKER}"')),
    "notepad-unicode-big-endian": (utf16(HOME + f"wifi-password = {MARKER}\r\n", b"\xfe\xff", "utf-16-be"),
                                   ("wpa", f'psk="{MARKER}"')),
    "notepad-utf8-bom": (b"\xef\xbb\xbf" + (HOME + f"wifi-password = {MARKER}\r\n").encode(),
                         ("wpa", f'psk="{MARKER}"')),
    "time-server-with-port": (HOME + f"wifi-password = {MARKER}\r\ntime-servers = pool.ntp.org:123\r\n", "wpa"),
    # 3. The parse's cost: thousands of accepted lines and one refused after them.
    "hostile-2001-lines": ("".join(f"exit-key = KEY_{'ABCDEFGH'[n % 8]}\n" for n in range(2000))
                           + HOME + f"wifi-password: {MARKER}\n", "no-wifi"),
}


def write(folder):
    """Writes every repro as FOLDER/NAME.txt; returns {path: expectation}."""
    os.makedirs(folder, exist_ok=True)
    written = {}
    for name, (content, expected) in REPROS.items():
        path = os.path.join(folder, name + ".txt")
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())
        written[path] = expected
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: settings_repros.py DIR")
    for path in write(sys.argv[1]):
        print(path)
