"""vmrig: run BabyAlbum on a real Linux kernel in a QEMU virtual machine (Python 3 stdlib only).

The guest is the host's Debian kernel (``/boot/vmlinuz-*``) with a tiny busybox initramfs that
loads the DRM, virtio, input and 9p modules, mounts the host's root filesystem read-only over
9p and ``chroot``s into it. So every host path (the freshly built ``babyalbum``, ``Photos/``,
the host's shared libraries, ``python3``) exists in the guest at the same path. A second,
writable 9p share (``vm.out``, a host temp dir) is mounted at the same path in the guest and
carries files back; the guest's ``/tmp``, ``/run`` and ``/var/tmp`` are empty tmpfs (so a
host file under ``/tmp`` is NOT visible in the guest: put inputs under the repository, e.g.
``.build-*``, or write them into ``vm.out``; the repository itself is shared separately and is
visible at its own path wherever it lies). The guest runs as root, with devtmpfs (no udev).
QEMU runs with TCG (KVM does not work on these machines): a boot takes about 5 s, and guest
code runs several times slower than on the host.

A spawned program's stdout is a file, so it is block-buffered: ``wait_for_log`` sees printed
text only after a flush. swift-log's stderr handler is unbuffered, so wait for log lines.

Usage::

    from vmrig import VM, BABYALBUM_BIN, REPO

    with VM(vga="std") as vm:                      # boots, waits for the guest shell
        status, out = vm.sh("ls /dev/dri")          # run a shell command in the guest
        proc = vm.spawn(f"{BABYALBUM_BIN} --photos {REPO}/Photos --seed 3")
        proc.wait_for_log("showing", timeout=60)     # poll its log (stdout+stderr) for text
        vm.screendump("/tmp/shot.png")               # QMP screendump, PNG, on the host
        vm.send_key("esc")                           # QMP send-key (qcodes)
        vm.input_events([{"type": "abs", "data": {"axis": "x", "value": 100}}])
        vm.device_add("virtio-tablet-pci", id="tab2")  # hotplug a device
        vm.qmp("query-status")                       # any QMP command
        proc.signal("TERM"); status = proc.wait(timeout=30)
        print(proc.log())

Options of ``VM(...)``:
    vga: ``"std"`` (bochs DRM driver, preferred mode 1280x800), ``"virtio"`` (virtio-gpu) or
        ``None`` (no display at all).
    devices: extra ``-device`` strings; default ``virtio-keyboard-pci`` and
        ``virtio-tablet-pci`` (appear as /dev/input/event*). Pass ``[]`` for none.
    memory: guest RAM in MiB (default 1024). extra_args: more QEMU arguments.
    modules: kernel modules to load (dependencies are added and ordered automatically).

``VM.sh(cmd, timeout=60) -> (status, output)`` runs ``cmd`` with ``/bin/sh`` in the guest
(stdout and stderr merged, as text). ``VM.spawn(cmd) -> GuestProcess`` starts it in the
background with default signal dispositions; ``GuestProcess`` has ``pid``, ``signal(name)``,
``wait(timeout) -> exit status`` (128+N when killed by signal N), ``exited()``, ``log()``,
``wait_for_log(text, timeout)``. ``VM.console`` is everything the serial console printed
(kernel messages included), handy in failure messages.

Environment: ``BABYALBUM_BIN`` (default ``<repo>/.build/release/babyalbum``), ``VMRIG_KERNEL``
(default: newest ``/boot/vmlinuz-*``), ``VMRIG_CACHE`` (initramfs cache, default
``<repo>/.build-vm``), ``VMRIG_VERBOSE=1`` echoes the serial console to stderr.
Needs the Debian packages ``qemu-system-x86 linux-image-amd64 busybox-static cpio``.
"""

import atexit
import glob
import gzip
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BABYALBUM_BIN = os.environ.get("BABYALBUM_BIN", os.path.join(REPO, ".build", "release", "babyalbum"))

#: Modules loaded in the guest by default (their dependencies are added automatically).
DEFAULT_MODULES = [
    "virtio_pci", "virtio_blk", "9pnet_virtio", "9p", "bochs", "virtio_gpu",
    "virtio_input", "evdev", "uinput",
]

READY = "VMRIG-READY"
#: QEMU's accelerator for a guest whose steps need no more than one host CPU: TCG with one host
#: thread for all the emulated CPUs (round-robin) rather than one thread each, which spends CPU
#: time keeping its threads in step. Measured on an idle 2-core host: Tests/Image/raspi3b.py (four
#: emulated CPUs) 137 s of host CPU against 207 s, in the same wall time (151 and 148 s). The
#: `virt` card of Tests/Image keeps a thread a CPU: on one thread its steps took one core at most,
#: and in a run of the test command that way its sync step (in its longest lane) took 964 s, 669 s
#: in CI's run before. Used by raspi3b.py and armrig.py (the package suite's arm64 "Pi").
SINGLE_THREAD_TCG = "tcg,thread=single"



def decoders_beside(binary):
    """The decode workers' programs that the frame `binary` starts, as it finds them: beside it (a
    build folder: `babyalbum-decoder`), else in `../libexec/babyalbum` (an unpacked package: one
    program a format family)."""
    folder = os.path.dirname(os.path.abspath(binary))
    for place in (folder, os.path.normpath(os.path.join(folder, "..", "libexec", "babyalbum"))):
        found = sorted(os.path.join(place, name) for name in os.listdir(place) if name.startswith("babyalbum-decoder")
                       and os.path.isfile(os.path.join(place, name))) if os.path.isdir(place) else []
        if found:
            return found
    return []


class VMError(Exception):
    """The virtual machine failed to boot, died, or a guest command timed out."""


def _kernel():
    kernel = os.environ.get("VMRIG_KERNEL")
    if kernel:
        return kernel
    kernels = sorted(glob.glob("/boot/vmlinuz-*"))
    if not kernels:
        raise VMError("no /boot/vmlinuz-*: install linux-image-amd64")
    return kernels[-1]


def _kernel_version(kernel):
    return os.path.basename(kernel)[len("vmlinuz-"):]


def module_order(version, names, base=None):
    """Module files for `names` and all their dependencies, dependencies first: this machine's
    modules, or those of the root at `base` (modinfo -b: the arm64 kernel's, for armrig)."""
    order, seen = [], set()
    root = ["-b", base] if base else []

    def path_of(name):
        out = subprocess.run(["modinfo", *root, "-k", version, "-n", name], capture_output=True, text=True)
        if out.returncode != 0:
            return None
        return out.stdout.strip()

    def visit(name):
        key = name.replace("-", "_")
        if key in seen:
            return
        seen.add(key)
        path = path_of(name)
        if path is None or path.startswith("(builtin)") or not path.startswith("/"):
            return
        deps = subprocess.run(["modinfo", "-F", "depends", path], capture_output=True, text=True).stdout.strip()
        for dep in filter(None, deps.split(",")):
            visit(dep)
        order.append(path)

    for name in names:
        visit(name)
    return order


#: The start of every guest's first process: busybox, /proc, /sys, /dev, the kernel modules in
#: dependency order, and ``arg NAME`` for the rig's kernel parameters (``$OUT`` already read).
INIT_PREAMBLE = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo 1 > /proc/sys/kernel/printk
for m in $(cat /modules.order); do insmod /modules/$m || echo "vmrig: insmod $m failed"; done
# The loopback interface, up as on any booted system: Foundation's CFSocket (under `Process`)
# makes its wakeup pair on 127.0.0.1, and without it a test's `waitUntilExit` can wait forever.
ip link set lo up
arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
OUT=$(arg vmrig.out)
"""

INIT = INIT_PREAMBLE + r"""mkdir -p /host
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostroot /host || { echo "vmrig: cannot mount host root"; poweroff -f; }
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mkdir -p /host/dev/pts /host/dev/shm
mount -t devpts devpts /host/dev/pts
mount -t tmpfs tmp /host/dev/shm
mount -t tmpfs tmp /host/tmp
mount -t tmpfs run /host/run
mount -t tmpfs vartmp /host/var/tmp
mkdir -p /host$OUT
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /host$OUT || { echo "vmrig: cannot mount out"; poweroff -f; }
# The repository (binary, photos, test scripts) at its own path, also when it lies under one of
# the tmpfs mounts above (a CI checkout in /tmp).
REPO=$(arg vmrig.repo)
mkdir -p /host$REPO 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro repo /host$REPO || { echo "vmrig: cannot mount the repository"; poweroff -f; }
# Let udev-less device nodes be found: /dev/dri and /dev/input come from devtmpfs.
echo "BabyAlbum test VM: console on tty1" > /dev/tty1
stty -echo
echo VMRIG-READY
exec chroot /host /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp TERM=dumb /bin/sh
"""


def pack_initramfs(target, busybox, modules, init=None):
    """Writes the test VMs' initramfs to `target`: `busybox`, the module files (decompressed, in
    the given order, loaded by /init) and `init` (default :data:`INIT`). Shared with the arm64 rig
    (armrig)."""
    with tempfile.TemporaryDirectory(prefix="vmrig-initramfs-") as root:
        for d in ("bin", "proc", "sys", "dev", "modules", "host", "tmp"):
            os.makedirs(os.path.join(root, d))
        shutil.copy(busybox, os.path.join(root, "bin", "busybox"))
        names = []
        for path in modules:
            name = os.path.basename(path)
            dest = os.path.join(root, "modules", name)
            if name.endswith(".xz"):
                dest = dest[:-3]
                with open(dest, "wb") as f:
                    subprocess.run(["xz", "-dc", path], stdout=f, check=True)
            elif name.endswith(".zst"):
                dest = dest[:-4]
                with open(dest, "wb") as f:
                    subprocess.run(["zstd", "-dc", path], stdout=f, check=True)
            else:
                shutil.copy(path, dest)
            names.append(os.path.basename(dest))
        with open(os.path.join(root, "modules.order"), "w") as f:
            f.write("\n".join(names) + "\n")
        with open(os.path.join(root, "init"), "w") as f:
            f.write(INIT if init is None else init)
        os.chmod(os.path.join(root, "init"), 0o755)
        files = subprocess.run(["find", "."], cwd=root, capture_output=True, check=True).stdout
        cpio = subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=root, input=files,
                              capture_output=True, check=True).stdout
        tmp = target + ".tmp"
        with open(tmp, "wb") as f:
            f.write(gzip.compress(cpio, compresslevel=1))
        os.replace(tmp, target)


def _build_initramfs(cache_dir, version, modules, init):
    busybox = shutil.which("busybox") or "/bin/busybox"
    order = module_order(version, modules)
    key = hashlib.sha256(json.dumps([version, order, init, os.path.getsize(busybox)]).encode()).hexdigest()[:16]
    os.makedirs(cache_dir, exist_ok=True)
    target = os.path.join(cache_dir, f"initramfs-{version}-{key}.cpio.gz")
    if os.path.exists(target):
        return target
    pack_initramfs(target, busybox, order, init)
    return target


class GuestProcess:
    """A background process in the guest started by :meth:`VM.spawn`."""

    def __init__(self, vm, pid, log_path, status_path):
        self.vm, self.pid = vm, pid
        self.log_path, self.status_path = log_path, status_path

    def log(self):
        """Its stdout and stderr so far."""
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def exited(self):
        """True once it has exited."""
        return os.path.exists(self.status_path) and os.path.getsize(self.status_path) > 0

    def signal(self, name="TERM"):
        """Sends signal `name` (e.g. ``"TERM"``, ``"INT"``) from inside the guest."""
        status, out = self.vm.sh(f"kill -{name} {self.pid}")
        if status != 0:
            raise VMError(f"kill -{name} {self.pid}: {out}")

    def signal_and_time_the_exit(self, name="TERM", timeout=60):
        """Sends signal `name` from inside the guest and waits there for the exit; returns the
        seconds from the signal to the exit by the guest's clock (/proc/uptime, 10 ms steps):
        no delay of the host's (the serial console's round trip, the polling of the exit
        status) is counted. Raises VMError when the process still runs `timeout` s later by that
        clock (the guest's shell is free again for the next command)."""
        status, out = self.vm.sh(
            f"read sent _ </proc/uptime; kill -{name} {self.pid} || exit 1; "
            f"until [ -s {self.status_path} ]; do read now _ </proc/uptime; "
            f"[ ${{now%.*}} -lt $((${{sent%.*}} + {int(timeout)})) ] || exit 2; sleep 0.01; done; "
            f"read ended _ </proc/uptime; echo \"$sent $ended\"", timeout=timeout + 60)
        if status == 2:
            raise VMError(f"guest process {self.pid} still running {timeout} s after SIG{name}; log:\n{self.log()}")
        if status != 0:
            raise VMError(f"kill -{name} {self.pid}: {out}")
        sent, ended = (float(value) for value in out.split()[-2:])
        return ended - sent

    def wait(self, timeout=60):
        """Waits for the exit; returns the status (128+N if killed by signal N)."""
        deadline = time.monotonic() + timeout
        while not self.exited():
            if time.monotonic() > deadline:
                raise VMError(f"guest process {self.pid} still running after {timeout} s; log:\n{self.log()}")
            self.vm._check_alive()
            time.sleep(0.05)
        with open(self.status_path) as f:
            return int(f.read().strip())

    def wait_for_log(self, pattern, timeout=60):
        """Waits until the log matches the regular expression `pattern`; returns the match."""
        deadline = time.monotonic() + timeout
        while True:
            m = re.search(pattern, self.log())
            if m:
                return m
            if self.exited():
                raise VMError(f"process exited before logging {pattern!r}; log:\n{self.log()}")
            if time.monotonic() > deadline:
                raise VMError(f"no {pattern!r} in the log after {timeout} s; log:\n{self.log()}")
            self.vm._check_alive()
            time.sleep(0.05)


class VM:
    """A QEMU guest running the host's kernel and root filesystem (see the module docstring)."""

    def __init__(self, vga="std", devices=None, memory=1024, extra_args=(), modules=None,
                 boot_timeout=120, kernel_args=(), init=None):
        self.vga = vga
        #: The guest's first process (default :data:`INIT`; the systemd rigs pass their own).
        self.init = INIT if init is None else init
        self.kernel_args = " ".join(kernel_args)
        self.devices = ["virtio-keyboard-pci", "virtio-tablet-pci"] if devices is None else list(devices)
        self.memory, self.extra_args = memory, list(extra_args)
        self.modules = DEFAULT_MODULES if modules is None else modules
        self.boot_timeout = boot_timeout
        self.console = ""
        self.boot_seconds = None
        self._proc = None
        self._qmp = None
        self._qmp_buf = b""
        self._lock = threading.Lock()
        self._seq = 0
        #: Every process spawn() started (release_shared_vm ends those still running).
        self.spawned = []

    # MARK: lifecycle

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        """Builds (or reuses) the initramfs, boots, and waits for the guest shell."""
        kernel = _kernel()
        version = _kernel_version(kernel)
        cache = os.environ.get("VMRIG_CACHE", os.path.join(REPO, ".build-vm"))
        initrd = _build_initramfs(cache, version, self.modules, self.init)
        self.out = tempfile.mkdtemp(prefix="vmrig-out-")
        os.chmod(self.out, 0o777)
        self.qmp_path = os.path.join(self.out, "qmp.sock")
        args = [
            "qemu-system-x86_64", "-accel", "tcg", "-m", str(self.memory), "-smp", "1",
            "-nodefaults", "-no-reboot", "-display", "none",
            "-serial", "stdio", "-monitor", "none",
            "-kernel", kernel, "-initrd", initrd,
            "-append", f"console=tty0 console=ttyS0 panic=-1 quiet loglevel=3 vmrig.out={self.out} vmrig.repo={REPO} {self.kernel_args}".rstrip(),
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", f"local,path={self.out},mount_tag=out,security_model=none,multidevs=remap",
            "-virtfs", f"local,path={REPO},mount_tag=repo,security_model=none,readonly=on,multidevs=remap",
            "-vga", {"std": "std", "virtio": "virtio", None: "none"}[self.vga],
        ]
        for device in self.devices:
            args += ["-device", device]
        args += self.extra_args
        started = time.monotonic()
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, bufsize=0)
        self._reader = threading.Thread(target=self._read_console, daemon=True)
        self._reader.start()
        deadline = started + self.boot_timeout
        while READY not in self.console:
            self._check_alive()
            if time.monotonic() > deadline:
                self.stop()
                raise VMError(f"guest not ready after {self.boot_timeout} s; console:\n{self.console[-4000:]}")
            time.sleep(0.02)
        self.boot_seconds = time.monotonic() - started
        status, out = self.sh("true", timeout=60)
        if status != 0:
            raise VMError(f"guest shell not working: {out}")

    def stop(self):
        """Powers the guest off (kills QEMU) and removes the shared directory."""
        if self._qmp is not None:
            try:
                self._qmp.close()
            except OSError:
                pass
            self._qmp = None
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            self._proc = None
        if getattr(self, "out", None):
            shutil.rmtree(self.out, ignore_errors=True)
            self.out = None

    def _read_console(self):
        out = self._proc.stdout
        while True:
            chunk = out.read(4096)
            if not chunk:
                return
            text = chunk.decode(errors="replace")
            with self._lock:
                self.console += text
            if os.environ.get("VMRIG_VERBOSE"):
                sys.stderr.write(text)
                sys.stderr.flush()

    def _check_alive(self):
        if self._proc is None or self._proc.poll() is not None:
            raise VMError(f"QEMU exited; console:\n{self.console[-4000:]}")

    # MARK: guest commands

    def sh(self, cmd, timeout=60):
        """Runs `cmd` with /bin/sh in the guest; returns (exit status, stdout+stderr text)."""
        self._check_alive()
        self._seq += 1
        n = self._seq
        script = os.path.join(self.out, f"cmd-{n}.sh")
        output = os.path.join(self.out, f"cmd-{n}.out")
        with open(script, "w") as f:
            f.write(cmd + "\n")
        marker = f"VMRIG-DONE-{n}-"
        line = f"/bin/sh {script} >{output} 2>&1 </dev/null; echo {marker[:-1]}\"-$?\"\n"
        with self._lock:
            start = len(self.console)
        self._proc.stdin.write(line.encode())
        self._proc.stdin.flush()
        pattern = re.compile(re.escape(marker) + r"(\d+)")
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                m = pattern.search(self.console, start)
            if m:
                break
            self._check_alive()
            if time.monotonic() > deadline:
                with open(output, errors="replace") as f:
                    partial = f.read()
                raise VMError(f"guest command timed out after {timeout} s: {cmd}\nits output so far (last "
                              f"4000 characters):\n{partial[-4000:]}\nconsole:\n{self.console[-2000:]}")
            time.sleep(0.01)
        with open(output, errors="replace") as f:
            text = f.read()
        os.unlink(script)
        os.unlink(output)
        return int(m.group(1)), text

    def reachable_by_any_user(self, binary, photos):
        """Copies of `binary` and the folder `photos` in the guest's /tmp, readable by every user:
        the paths a test that runs the frame as another user (``setpriv --reuid=65534``) gives it.
        A checkout under /root (a root user's clone, the README's way) cannot be entered by
        another user, so the repository's own paths would fail before what the test is about.
        Returns (binary, photos) in the guest."""
        folder = "/tmp/babyalbum-any-user"
        decoders = " ".join(_quote(decoder) for decoder in decoders_beside(binary))
        rc, out = self.sh(f"rm -rf {folder} && mkdir -p {folder} && cp {_quote(binary)} {folder}/babyalbum && "
                          f"cp {decoders} {folder}/ && "
                          f"cp -r {_quote(photos)} {folder}/Photos && chmod -R a+rX {folder} && "
                          f"setpriv --reuid=65534 --regid=65534 --clear-groups test -x {folder}/babyalbum", timeout=120)
        if rc != 0:
            raise VMError(f"cannot make the frame reachable by user nobody: {out}")
        return f"{folder}/babyalbum", f"{folder}/Photos"

    def spawn(self, cmd):
        """Starts the command line `cmd` (``exec``ed by /bin/sh, so ``pid`` is the program's) in the
        background in the guest, with default signal dispositions; output goes to its log."""
        self._seq += 1
        n = self._seq
        log = os.path.join(self.out, f"proc-{n}.log")
        status = os.path.join(self.out, f"proc-{n}.status")
        pidfile = os.path.join(self.out, f"proc-{n}.pid")
        inner = os.path.join(self.out, f"proc-{n}.sh")
        with open(inner, "w") as f:
            f.write(f"env --default-signal /bin/sh -c {_quote('exec ' + cmd)} </dev/null >{log} 2>&1 &\n"
                    f"echo $! >{pidfile}.tmp; mv {pidfile}.tmp {pidfile}\n"
                    f"wait $!; echo $? >{status}.tmp; mv {status}.tmp {status}\n")
        rc, out = self.sh(f"/bin/sh {inner} </dev/null >/dev/null 2>&1 &\n"
                          f"while [ ! -s {pidfile} ]; do sleep 0.01; done; cat {pidfile}")
        if rc != 0:
            raise VMError(f"spawn failed: {out}")
        process = GuestProcess(self, int(out.strip()), log, status)
        self.spawned.append(process)
        return process

    # MARK: QMP

    def qmp(self, command, **arguments):
        """Runs QMP `command` with `arguments` (underscores in names become dashes); returns "return"."""
        self._check_alive()
        if self._qmp is None:
            self._qmp = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._qmp.settimeout(60)
            self._qmp.connect(self.qmp_path)
            self._qmp_read()  # greeting
            self._qmp_send({"execute": "qmp_capabilities"})
        args = {k.replace("_", "-"): v for k, v in arguments.items()}
        msg = {"execute": command}
        if args:
            msg["arguments"] = args
        return self._qmp_send(msg)

    def _qmp_send(self, msg):
        self._qmp.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self._qmp_read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VMError(f"QMP {msg['execute']}: {reply['error'].get('desc', reply['error'])}")

    def _qmp_read(self):
        while b"\n" not in self._qmp_buf:
            chunk = self._qmp.recv(65536)
            if not chunk:
                raise VMError("QMP connection closed")
            self._qmp_buf += chunk
        line, self._qmp_buf = self._qmp_buf.split(b"\n", 1)
        return json.loads(line)

    def screendump(self, path):
        """Saves what the guest's display shows as a PNG file at host `path`."""
        self.qmp("screendump", filename=os.path.abspath(path), format="png")
        return path

    def still_screendump(self, path):
        """Like `screendump`, with the guest stopped while QEMU copies its display. A screendump
        is not synchronised with the guest: QEMU reads the scan-out buffer row by row while the
        guest's CPU runs on, so a guest that flips pages and draws its next picture into the
        buffer being read gives a picture no screen ever showed. A stopped guest draws nothing,
        and its clocks stop with it (QEMU stops the guest's TSC), so a fade timed by the
        guest's clock goes on where it was."""
        self.qmp("stop")
        try:
            return self.screendump(path)
        finally:
            self.qmp("cont")

    def send_key(self, *qcodes, hold_time=100):
        """Presses the keys `qcodes` together (QEMU qcodes: "esc", "a", "ctrl", "power"...)."""
        keys = [{"type": "qcode", "data": q} for q in qcodes]
        return self.qmp("send-key", keys=keys, hold_time=hold_time)

    def input_events(self, events, device=None):
        """Injects QMP InputEvent dicts (key, btn, abs 0..0x7fff, rel) with input-send-event."""
        if device is None:
            return self.qmp("input-send-event", events=events)
        return self.qmp("input-send-event", device=device, events=events)

    def device_add(self, driver, **props):
        """Hotplugs device `driver` (e.g. ``"virtio-keyboard-pci"``, ``id="kbd2"``)."""
        return self.qmp("device_add", driver=driver, **props)

    def device_del(self, id):
        """Unplugs the device with `id`."""
        return self.qmp("device_del", id=id)


#: The guest that test classes share (shared_vm), or None before the first class takes it.
_shared = None


def shared_vm():
    """The one ``VM(vga="std")`` guest (bochs display, virtio keyboard and tablet) that the test
    classes needing nothing else share, instead of a boot each: booted on the first call (again
    when its QEMU has exited), powered off when the tests' process exits. A class hands it back
    with :func:`release_shared_vm` in its tearDownClass."""
    global _shared
    if _shared is not None and (_shared._proc is None or _shared._proc.poll() is not None):
        _shared.stop()
        _shared = None
    if _shared is None:
        vm = VM(vga="std")
        atexit.register(vm.stop)
        vm.start()
        print(f"  shared guest (vga=std) booted in {vm.boot_seconds:.1f} s", file=sys.stderr)
        _shared = vm
    return _shared


def release_shared_vm(vm):
    """Hands the shared guest back as the next class would find a fresh boot: every process the
    class spawned that still runs is ended (SIGTERM, so the display and console are given back,
    then SIGKILL after 30 s) and reaped, the connectors' forced status goes back to detection, and
    the guest's clock back to the host's (a fresh guest reads it from the host's RTC). A guest
    that no longer answers is powered off (the next class boots another)."""
    global _shared
    try:
        for process in vm.spawned:
            if process.exited():
                continue
            vm.sh(f"kill -TERM {process.pid} 2>/dev/null")
            try:
                process.wait(timeout=30)
            except VMError:
                vm.sh(f"kill -KILL {process.pid} 2>/dev/null")
                process.wait(timeout=30)
        vm.spawned = []
        status, out = vm.sh("for s in /sys/class/drm/card*-*/status; do echo detect > $s; done; "
                            f"date -u -s @{time.time():.3f} >/dev/null")
        if status != 0:
            raise VMError(f"the shared guest could not be reset: {out}")
    except VMError:
        vm.stop()
        if _shared is vm:
            _shared = None
        raise


class GuestTestCase(unittest.TestCase):
    """A test class with one guest, started once for all its tests (skipped when the binary under
    test is not built); with the default options it is the shared guest (:func:`shared_vm`).
    Each test may keep the slideshow it started in `self.app`: it is ended with SIGTERM after the
    test, whatever the outcome. Subclasses set `vm_options` (VM's keyword
    arguments) and extend setUpClass/tearDownClass with super()."""

    vm_options = {"vga": "std"}

    @classmethod
    def setUpClass(cls):
        if not os.access(BABYALBUM_BIN, os.X_OK):
            raise unittest.SkipTest(f"{BABYALBUM_BIN} not built (swift build -c release: babyalbum and babyalbum-decoder)")
        if cls.vm_options == {"vga": "std"}:
            cls.vm = shared_vm()
        else:
            cls.vm = VM(**cls.vm_options)
            cls.vm.start()

    @classmethod
    def tearDownClass(cls):
        if cls.vm is _shared:
            release_shared_vm(cls.vm)
        else:
            cls.vm.stop()

    def tearDown(self):
        app = getattr(self, "app", None)
        if app is not None and not app.exited():
            app.signal("TERM")
            app.wait(timeout=60)


def _quote(s):
    return "'" + s.replace("'", "'\"'\"'") + "'"
