"""The exit button in a decompiled Raspberry Pi device tree (`dtc -I dtb -O dts`): what
scripts/dtb-exit-button must have added. Shared by test_dtb_exit_button.py (Debian's trees) and
image_vm.py (the trees on a built card). Standard library only.
"""

import re

#: The SoC's GPIO controller: BCM2837 (Pi 3, Zero 2 W, CM3) and BCM2711 (Pi 4, 400, CM4).
GPIO_COMPATIBLES = ("brcm,bcm2835-gpio", "brcm,bcm2711-gpio")
#: The Pi trees the card must carry (Debian's linux-image-arm64, broadcom/), each with the button.
PI_TREES = ("bcm2711-rpi-4-b.dtb", "bcm2711-rpi-400.dtb", "bcm2837-rpi-3-a-plus.dtb", "bcm2837-rpi-3-b.dtb",
            "bcm2837-rpi-3-b-plus.dtb", "bcm2837-rpi-zero-2-w.dtb")
#: The trees scripts/image gives the button: every Pi 3 and Pi 4 family tree of the kernel
#: (bcm2837: 3 A+, 3 B, 3 B+, Zero 2 W, CM3; bcm2711: 4 B, 400, CM4). Trixie's kernel also has
#: bcm2712-rpi-5-b.dtb, whose 40-pin header is on the RP1 chip that kernel 6.12's tree does not
#: describe: no GPIO controller to put the button on, so the card does not carry that tree.
BUTTON_TREE_GLOBS = ("bcm2837-rpi-*.dtb", "bcm2711-rpi-*.dtb")
KEY_POWER = 0x74
GPIO = 3
ACTIVE_LOW = 1
#: I2C1 (BSC1), whose SCL is GPIO 3.
I2C1 = "i2c@7e804000"

_NODE = re.compile(r"^\s*(?:[\w,.+-]+:\s*)*([\w,.+@/-]+)\s*\{\s*$")
_PROPERTY = re.compile(r"^\s*([\w,.+#?-]+)\s*(?:=\s*(.*))?;\s*$")


def parse(source):
    """{node path: {property: raw value text (None for a property without one)}} of dtc's output."""
    nodes, stack = {}, []
    for line in source.splitlines():
        if line.strip() in ("", "/dts-v1/;") or line.strip().startswith(("/memreserve/", "//")):
            continue
        m = _NODE.match(line)
        if m:
            name = m.group(1)
            stack.append(name)
            path = "/" if name == "/" else "/" + "/".join(stack[1:])
            nodes[path] = {}
            continue
        if line.strip() == "};":
            stack.pop()
            continue
        m = _PROPERTY.match(line)
        if m and stack:
            path = "/" if len(stack) == 1 else "/" + "/".join(stack[1:])
            nodes[path][m.group(1)] = m.group(2)
    return nodes


def strings(value):
    """A string-list property's strings: '"a\\0b"' or '"a", "b"' -> ['a', 'b']."""
    return [s for part in re.findall(r'"((?:[^"\\]|\\.)*)"', value or "") for s in part.split("\\0")]


def cells(value):
    """A <...> property's cells as numbers."""
    m = re.fullmatch(r"<([^>]*)>", (value or "").strip())
    return [int(c, 0) for c in m.group(1).split()] if m else None


def gpio_controllers(nodes):
    return [path for path, props in nodes.items() if set(strings(props.get("compatible"))) & set(GPIO_COMPATIBLES)]


def problems(source):
    """What is wrong with the exit button in the decompiled tree `source`: an empty list when it has
    a gpio-keys node sending KEY_POWER (0x74) while GPIO 3 of the SoC's GPIO controller (found by
    its compatible, its phandle read from the tree) is low, and I2C1 is off."""
    nodes = parse(source)
    found = []
    controllers = gpio_controllers(nodes)
    if len(controllers) != 1:
        return [f"{len(controllers)} GPIO controllers ({', '.join(GPIO_COMPATIBLES)}): {controllers}"]
    controller = controllers[0]
    phandle = cells(nodes[controller].get("phandle"))
    if not phandle:
        return [f"the GPIO controller {controller} has no phandle"]
    keys = [path for path, props in nodes.items() if "gpio-keys" in strings(props.get("compatible"))]
    if not keys:
        return ["no gpio-keys node"]
    buttons = [(path, props) for path, props in nodes.items()
               if any(path.startswith(k + "/") and path.count("/") == k.count("/") + 1 for k in keys)
               and cells(props.get("linux,code")) == [KEY_POWER]]
    if not buttons:
        found.append("no key of a gpio-keys node sends KEY_POWER (linux,code = <0x74>)")
    elif not any(cells(props.get("gpios")) == [phandle[0], GPIO, ACTIVE_LOW] for _, props in buttons):
        found.append(f"KEY_POWER is not on GPIO 3 active low of {controller} (phandle {phandle[0]:#x}): "
                     + "; ".join(f"{path}: gpios = {props.get('gpios')}" for path, props in buttons))
    bus = controller.rsplit("/", 1)[0] + "/" + I2C1
    if bus in nodes and strings(nodes[bus].get("status")) != ["disabled"]:
        found.append(f"I2C1 ({bus}), which shares GPIO 3, is not switched off")
    return found


def describe(source):
    """One line: the button's node, its gpios and the controller it points at (for the logs)."""
    nodes = parse(source)
    controllers = gpio_controllers(nodes)
    key = next((p for p, props in nodes.items() if cells(props.get("linux,code")) == [KEY_POWER]), None)
    if len(controllers) != 1 or not key:
        return "no exit button"
    controller = controllers[0]
    return (f"{key}: linux,code = {nodes[key]['linux,code']}, gpios = {nodes[key].get('gpios')} "
            f"({controller}, phandle {nodes[controller].get('phandle')})")
