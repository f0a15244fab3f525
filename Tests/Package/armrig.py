"""armrig: an arm64 "Pi" in QEMU for the package tests (Python 3 stdlib only).

``qemu-system-aarch64 -M virt -cpu cortex-a72`` (TCG, two CPUs) with virtio-gpu, a virtio
keyboard and tablet, Debian 12's own arm64 kernel (``linux-image-arm64``), and as its root a
bookworm arm64 file tree that has the babyalbum arm64 package installed: the package's
dependencies as apt resolves them on bookworm arm64, each unpacked, then the package itself.
It is Tests/VM/vmrig's VM (same guest shell, ``spawn``, QMP, screendump), with another kernel,
initramfs, QEMU and root. The Pi's firmware boot is not tested (QEMU 7.2 has no Raspberry Pi 4).

Everything downloaded is cached under ``$BABYALBUM_CACHE`` (default /var/cache/babyalbum/package).
"""

import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "Tests", "VM"))

import vmrig  # noqa: E402

CACHE = os.environ.get("BABYALBUM_CACHE", "/var/cache/babyalbum/package")
MIRROR = os.environ.get("BABYALBUM_MIRROR", "http://deb.debian.org/debian")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
MODULES = ["virtio_pci", "virtio_gpu", "virtio_input", "evdev", "uinput", "9pnet_virtio", "9p"]


def apt(directory, suite, arch, *args, capture=True):
    """apt-get with a throwaway configuration for `suite` and `arch` (never this machine's own
    sources or package database); returns the completed process."""
    for sub in ("lists/partial", "cache/archives/partial", "preferences.d"):
        os.makedirs(os.path.join(directory, sub), exist_ok=True)
    status = os.path.join(directory, "status")
    if not os.path.exists(status):
        open(status, "w").close()
    with open(os.path.join(directory, "sources.list"), "w") as f:
        f.write(f"deb [signed-by={KEYRING}] {MIRROR} {suite} main\n")
    options = {
        "Dir::Etc::SourceList": os.path.join(directory, "sources.list"), "Dir::Etc::SourceParts": "/dev/null",
        "Dir::Etc::PreferencesParts": os.path.join(directory, "preferences.d"),
        "Dir::State::Lists": os.path.join(directory, "lists"), "Dir::State::status": status,
        "Dir::Cache": os.path.join(directory, "cache"), "Debug::NoLocking": "1",
        "APT::Architecture": arch, "APT::Architectures::": arch, "Acquire::Check-Valid-Until": "false",
        "APT::Sandbox::User": "root",
    }
    command = ["apt-get", "-q"]
    for key, value in options.items():
        command += ["-o", f"{key}={value}"]
    return subprocess.run(command + list(args), capture_output=capture, text=True)


def apt_update(directory, suite, arch, max_age=6 * 3600):
    """`apt-get update` unless the lists are younger than `max_age` seconds."""
    stamp = os.path.join(directory, "updated")
    if os.path.exists(stamp) and time.time() - os.path.getmtime(stamp) < max_age:
        return
    result = apt(directory, suite, arch, "update")
    if result.returncode != 0:
        raise vmrig.VMError(f"apt-get update ({suite} {arch}) failed:\n{result.stdout}{result.stderr}")
    open(stamp, "w").close()


def download(directory, suite, arch, *packages):
    """Downloads `packages` (names or local .deb files) and everything they depend on, as apt
    resolves it on `suite` for `arch` from nothing installed; returns the downloaded .deb paths."""
    apt_update(directory, suite, arch)
    archives = os.path.join(directory, "cache", "archives")
    for old in glob.glob(os.path.join(archives, "*.deb")):
        os.unlink(old)
    result = apt(directory, suite, arch, "install", "-y", "--download-only", "--no-install-recommends", *packages)
    if result.returncode != 0:
        raise vmrig.VMError(f"apt cannot install {' '.join(packages)} on {suite} {arch}:\n{result.stdout}{result.stderr}")
    return sorted(glob.glob(os.path.join(archives, "*.deb")))


def unpack(debs, root):
    for deb in debs:
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True)


def kernel():
    """Debian 12's arm64 kernel, unpacked once: (vmlinuz path, modules base dir, version)."""
    base = os.path.join(CACHE, "vm-arm64-kernel")
    found = glob.glob(os.path.join(base, "boot", "vmlinuz-*"))
    if not found:
        debs = download(os.path.join(CACHE, "apt-vm-kernel-arm64"), "bookworm", "arm64", "linux-image-arm64",
                        "busybox-static")
        tmp = base + ".new"
        shutil.rmtree(tmp, ignore_errors=True)
        unpack([d for d in debs if os.path.basename(d).startswith(("linux-image-", "busybox-static"))], tmp)
        for d in debs:
            os.unlink(d)
        version = os.path.basename(glob.glob(os.path.join(tmp, "boot", "vmlinuz-*"))[0])[len("vmlinuz-"):]
        subprocess.run(["depmod", "-b", tmp, version], check=True)  # what the package's postinst does
        shutil.rmtree(base, ignore_errors=True)
        os.rename(tmp, base)
        found = glob.glob(os.path.join(base, "boot", "vmlinuz-*"))
    vmlinuz = found[0]
    return vmlinuz, base, os.path.basename(vmlinuz)[len("vmlinuz-"):]


def initramfs(base, version):
    """vmrig's initramfs (the same /init) with the arm64 busybox and the arm64 modules."""
    order = vmrig.module_order(version, MODULES, base=base)
    busybox = os.path.join(base, "bin", "busybox")
    key = hashlib.sha256(json.dumps([version, order, vmrig.INIT]).encode()).hexdigest()[:16]
    target = os.path.join(CACHE, f"vm-arm64-initramfs-{key}.cpio.gz")
    if os.path.exists(target):
        return target
    vmrig.pack_initramfs(target, busybox, order)
    return target


def package_root(deb, suite="bookworm", extra=("strace", "python3-pil"), arch="arm64"):
    """A `suite` root of `arch` with `deb` installed: apt resolves the package's Depends there (from
    nothing installed), every package it picks is unpacked (without maintainer scripts), then the
    package, and the package's own postinst runs (arm64's under qemu-user); plus dash and coreutils
    for the guest shell, and `extra` (strace, to measure the decode sandbox's calls; Pillow, which
    the worker's tests make photos with). Returns (root, names of the packages apt picked)."""
    apt_dir = os.path.join(CACHE, f"apt-vm-root-{suite}-{arch}")
    debs = download(apt_dir, suite, arch, os.path.abspath(deb), "dash", "coreutils", *extra)
    names = sorted(os.path.basename(d).split("_")[0] for d in debs)
    key = hashlib.sha256("\n".join(os.path.basename(d) for d in debs).encode()).hexdigest()[:16]
    root = os.path.join(CACHE, f"vm-{arch}-root-{suite}")
    stamp = os.path.join(root, ".key")
    if not (os.path.exists(stamp) and open(stamp).read() == key):
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        unpack(debs, root)
        # Debian 13's packages ship only under /usr: the merged-/usr aliases (base-files' on a
        # real system; /bin/sh, /lib/ld-linux-aarch64.so.1, /lib64/ld-linux-x86-64.so.2) where no package made a real folder.
        for alias in ("bin", "sbin", "lib", "lib64"):
            if os.path.isdir(os.path.join(root, "usr", alias)) and not os.path.lexists(os.path.join(root, alias)):
                os.symlink(f"usr/{alias}", os.path.join(root, alias))
        for d in ("proc", "sys", "dev", "tmp", "run", "var/tmp", "root"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        with open(os.path.join(root, "etc", "passwd"), "a") as f:
            f.write("root:x:0:0:root:/root:/bin/sh\n")
        with open(os.path.join(root, "etc", "group"), "a") as f:
            f.write("root:x:0:\nvideo:x:44:\ninput:x:105:\ntty:x:5:\n")
        with open(stamp, "w") as f:
            f.write(key)
    unpack([deb], root)  # the package under test, always the newest
    # Its postinst, as dpkg would run it (arm64 code through the kernel's qemu-user binfmt handler,
    # registered by scripts/enable-arm64: one line that says why when it cannot be).
    if arch == "arm64":
        enabled = subprocess.run([os.path.join(REPO, "scripts", "enable-arm64")], capture_output=True, text=True)
        if enabled.returncode != 0:
            raise vmrig.VMError(enabled.stderr.strip())
    control = os.path.join(root, "tmp", "babyalbum-control")
    shutil.rmtree(control, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-e", deb, control], check=True)
    result = subprocess.run(["chroot", root, "/bin/sh", "/tmp/babyalbum-control/postinst", "configure"],
                            capture_output=True, text=True)
    shutil.rmtree(control, ignore_errors=True)
    if result.returncode != 0:
        raise vmrig.VMError(f"the package's postinst failed in the arm64 root:\n{result.stdout}{result.stderr}")
    # vmrig's guest mounts the repository (the photos) at its own path: the mount point.
    os.makedirs(root + REPO, exist_ok=True)
    return root, names


def install_unit_tests(root):
    """Copies the arm64 unit tests (`scripts/package --unit-tests --build-only`), `babyalbum` and
    `babyalbum-decoder` built beside them (the workers the tests start) into `root`, and the arm64 Swift runtime they
    link into its library folder; returns their folder as the guest sees it."""
    scratch = os.path.join(CACHE, "scratch", "arm64-tests", "aarch64-unknown-linux-gnu", "release")
    runtime = glob.glob(os.path.join(CACHE, "sdks", "babyalbum-trixie-arm64.artifactbundle", "*", "lib", "swift",
                                     "linux"))
    if not runtime or not os.path.exists(os.path.join(scratch, "BabyAlbumPackageTests.xctest")):
        raise vmrig.VMError(f"no arm64 unit tests in {scratch} or no trixie arm64 runtime: "
                            "scripts/package --unit-tests --build-only")
    folder = "/opt/babyalbum-tests"
    target = root + folder
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    for name in ("BabyAlbumPackageTests.xctest", "babyalbum", "babyalbum-decoder"):
        shutil.copy2(os.path.join(scratch, name), target)
    # Where the dynamic loader looks by default: the workers start with an empty environment.
    libraries = os.path.join(root, "usr", "lib", "aarch64-linux-gnu")
    for library in glob.glob(os.path.join(runtime[0], "*.so*")):
        shutil.copy2(library, libraries, follow_symlinks=True)
    os.makedirs(root + "/src", exist_ok=True)  # the sources' mount point, where the build had them
    return folder


class ArmVM(vmrig.VM):
    """vmrig.VM on qemu-system-aarch64 -M virt -cpu cortex-a72 with `root` as the guest's root."""

    def __init__(self, root, memory=1024, boot_timeout=240):
        super().__init__(vga="virtio", devices=["virtio-keyboard-pci", "virtio-tablet-pci"], memory=memory,
                         boot_timeout=boot_timeout)
        self.root = root

    def start(self):
        vmlinuz, base, version = kernel()
        initrd = initramfs(base, version)
        self.out = tempfile.mkdtemp(prefix="armrig-out-")
        os.chmod(self.out, 0o777)
        self.qmp_path = os.path.join(self.out, "qmp.sock")
        args = [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-accel", vmrig.SINGLE_THREAD_TCG, "-smp", "2",
            "-m", str(self.memory), "-nodefaults", "-no-reboot", "-display", "none",
            "-serial", "stdio", "-monitor", "none", "-kernel", vmlinuz, "-initrd", initrd,
            "-append", f"console=ttyAMA0 panic=-1 quiet loglevel=3 vmrig.out={self.out} vmrig.repo={REPO}",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-virtfs", f"local,path={self.root},mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", f"local,path={self.out},mount_tag=out,security_model=none,multidevs=remap",
            "-virtfs", f"local,path={REPO},mount_tag=repo,security_model=none,readonly=on,multidevs=remap",
            "-device", "virtio-gpu-pci",
        ]
        for device in self.devices:
            args += ["-device", device]
        self.started = time.monotonic()
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, bufsize=0)
        self._reader = threading.Thread(target=self._read_console, daemon=True)
        self._reader.start()
        deadline = self.started + self.boot_timeout
        while vmrig.READY not in self.console:
            self._check_alive()
            if time.monotonic() > deadline:
                self.stop()
                raise vmrig.VMError(f"arm64 guest not ready after {self.boot_timeout} s; console:\n{self.console[-4000:]}")
            time.sleep(0.05)
        self.boot_seconds = time.monotonic() - self.started
        status, out = self.sh("true", timeout=120)
        if status != 0:
            raise vmrig.VMError(f"guest shell not working: {out}")
