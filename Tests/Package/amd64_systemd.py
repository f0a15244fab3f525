"""The amd64 package on the x86 systemd VM of Tests/Deploy/systemd_vm.py, as a parent installs it.

The guest boots the host's Debian 12 userland (read-only over 9p, under a tmpfs overlay) with
systemd as PID 1 and no BabyAlbum. Then, live, as deploy/README.md ("5. Install") tells a parent:

1. `apt-get install ./babyalbum_<version>_amd64.deb` (the guest has no network: every dependency
   is already in the host's root, and apt reads no package lists, see APT); the postinst makes
   the user and the photo folder and enables babyalbum.service without starting it;
   `/usr/share/babyalbum/deploy/install.sh` (from the package) does the rest, starting nothing;
2. the parent's reboot, here `systemctl start babyalbum.service` (the guest's root is a tmpfs: a
   reboot would lose the install): the package's unit runs /usr/bin/babyalbum, which sends READY=1,
   pings its watchdog, runs as babyalbum and shows a photo on the bochs DRM screen, pixel for pixel
   the package program's own `--output png:` frame; `babyalbum doctor` passes;
3. the same package again (`apt-get install --reinstall`, an upgrade's maintainer-script path):
   the running frame restarts once with it, and one frame runs, showing photos;
4. the exit button held ends it with status 0 for good, and the login prompt comes back;
5. `apt-get purge babyalbum` removes the program and the unit; the photos, the settings and the
   user stay.
"""

import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Deploy"))
import systemd_vm  # noqa: E402
from systemd_vm import FRAME_OPTIONS, REPO, Failure, check_doctor, check_exit_button, check_running_and_showing, show, step, wait_for  # noqa: E402

#: apt in the guest, which has no network: no package lists either (reading the host's 19 MB of
#: them took most of a minute per command under TCG), so the Depends resolve against what is
#: installed only (bookworm's archive resolves them in the Package suite's DependencyTests).
APT = "apt-get -y -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=/dev/null"

#: The unit the package installs, and the program it runs.
PACKAGE_UNIT = "/usr/lib/systemd/system/babyalbum.service"
PROGRAM = "/usr/bin/babyalbum"


def guest(vm, command, timeout=300, what=None):
    """Runs `command` in the guest; raises Failure (with its output) unless it exits 0."""
    status, output = vm.sh(command, timeout=timeout)
    if status != 0:
        raise Failure(f"{what or command} failed ({status}):\n{output[-3000:]}")
    return output


def install(vm, deb):
    """Step 1: apt installs the package, install.sh from the package configures the frame;
    neither starts it."""
    started = time.monotonic()
    output = guest(vm, f"{APT} install --no-install-recommends {deb} 2>&1", what="apt-get install")
    print(f"    apt-get install: {time.monotonic() - started:.0f} s; "
          + (next((line for line in output.splitlines() if "newly installed" in line), "?")), flush=True)
    state = guest(vm, "dpkg-query -W -f='${Status} ${Version}\\n' babyalbum; systemctl is-enabled babyalbum.service; "
                      "systemctl is-active babyalbum.service; id -nG babyalbum; stat -c '%a %U %G' /var/lib/babyalbum/photos; "
                      "readlink -f $(systemctl show -p FragmentPath --value babyalbum.service) || true")
    print("    after apt: " + " | ".join(state.splitlines()), flush=True)
    lines = state.splitlines()
    if not lines[0].startswith("install ok installed") or lines[1:3] != ["enabled", "inactive"]:
        raise Failure(f"after apt-get install: installed, enabled and not started expected:\n{state}")
    if not {"babyalbum", "video", "input", "tty"} <= set(lines[3].split()) or lines[4] != "2750 root babyalbum" \
            or lines[5] != PACKAGE_UNIT:
        raise Failure(f"the package's user, photo folder or unit:\n{state}")
    output = guest(vm, f"/usr/share/babyalbum/deploy/install.sh --board none --no-apt --options '{FRAME_OPTIONS}' 2>&1",
                   what="/usr/share/babyalbum/deploy/install.sh")
    print("    " + next((line for line in reversed(output.splitlines()) if line.endswith(" changes")), "?"), flush=True)
    if "sudo reboot" not in output:
        raise Failure(f"install.sh did not tell to reboot:\n{output}")
    state = guest(vm, "systemctl is-active babyalbum.service; test -e /usr/local/bin/babyalbum && echo bare-copy; "
                      "test -e /etc/systemd/system/babyalbum.service && echo unit-copy; true")
    if state.split() != ["inactive"]:
        raise Failure(f"after install.sh: the frame must wait for the reboot, with the package's files only: {state}")
    guest(vm, f"cp {REPO}/Photos/*.png /var/lib/babyalbum/photos/")


def check_package_program(vm):
    """The running service is the package's unit and program."""
    output = guest(vm, "readlink -f $(systemctl show -p FragmentPath --value babyalbum.service); "
                       "readlink /proc/$(systemctl show -p MainPID --value babyalbum.service)/exe")
    if output.split() != [PACKAGE_UNIT, PROGRAM]:
        raise Failure(f"not the package's unit and program: {output}")


def upgrade(vm, deb):
    """Step 3: the package installed again restarts the running frame once; one copy runs."""
    before = show(vm)["MainPID"]
    started = time.monotonic()
    guest(vm, f"{APT} install --reinstall {deb} 2>&1", what="apt-get install --reinstall")
    print(f"    apt-get install --reinstall: {time.monotonic() - started:.0f} s", flush=True)
    wait_for(vm, "systemctl show -p SubState --value babyalbum.service", r"^running", 120, "running after the upgrade")
    after = show(vm)["MainPID"]
    if after in (before, "0"):
        raise Failure(f"the frame was not restarted by the upgrade (MainPID {before} -> {after})")
    wait_for(vm, f"journalctl _PID={after} --no-pager -o cat", r"showing \S+", 90, "a photo after the upgrade")
    # One frame: every babyalbum process is the service's main process or its child (a decoder).
    rows = [line.split() for line in guest(vm, "ps -o pid=,ppid= -C babyalbum").splitlines() if line.strip()]
    print(f"    restarted: MainPID {before} -> {after}; babyalbum processes (pid, parent): {rows}", flush=True)
    if not rows or any(after not in row for row in rows):
        raise Failure(f"not exactly one frame running after the upgrade: {rows} (MainPID {after})")


def purge(vm):
    """Step 5: apt-get purge removes the program and the unit, never the parent's files."""
    started = time.monotonic()
    guest(vm, f"{APT} purge babyalbum 2>&1", what="apt-get purge")
    print(f"    apt-get purge: {time.monotonic() - started:.0f} s", flush=True)
    state = guest(vm, f"test -e {PROGRAM} && echo program-left; test -e {PACKAGE_UNIT} && echo unit-left; "
                      "ls /var/lib/babyalbum/photos | wc -l; test -f /etc/default/babyalbum && echo settings; "
                      "id -u babyalbum >/dev/null && echo user; true")
    print("    after purge: " + " ".join(state.split()), flush=True)
    photos = len([n for n in os.listdir(os.path.join(REPO, "Photos")) if n.endswith(".png")])
    if state.split() != [str(photos), "settings", "user"]:
        raise Failure(f"apt-get purge: the program and unit gone, the {photos} photos, settings and user kept: {state}")


def run(deb, program):
    """The whole scenario with package `deb`; `program` (the package's, unpacked on the host)
    renders the expected frames. Raises Failure or vmrig.VMError."""
    work = tempfile.mkdtemp(prefix="babyalbum-package-vm-")
    os.chmod(work, 0o755)
    vm = systemd_vm.make_vm(work, "")
    frames = systemd_vm.expected_frames(work, program)
    started = time.monotonic()
    late = []
    try:
        vm.start()
        print(f"  booted systemd in {time.monotonic() - started:.0f} s", flush=True)
        guest_deb = os.path.join(vm.out, os.path.basename(deb))
        shutil.copy(deb, guest_deb)
        fifo = systemd_vm.start_exit_button(vm)
        shot = os.path.join(vm.out, "screen.png")
        step("1. apt-get install ./babyalbum_*_amd64.deb, then /usr/share/babyalbum/deploy/install.sh")
        install(vm, guest_deb)
        step("2. the reboot (systemctl start): the package's unit shows a photo; doctor passes")
        launched = time.monotonic()
        vm.sh("systemctl start --no-block babyalbum.service")
        check_running_and_showing(vm, frames, shot, late, started=launched)
        check_package_program(vm)
        check_doctor(vm, PROGRAM)
        step("3. the package again (an upgrade): the frame restarts once, one copy runs")
        upgrade(vm, guest_deb)
        step("4. the exit button ends it for good; the login prompt comes back")
        check_exit_button(vm, fifo)
        step("5. apt-get purge: the program and unit go; photos, settings and the user stay")
        purge(vm)
        if late:
            raise Failure("; ".join(late))
        print(f"  amd64 package in the systemd VM: passed in {time.monotonic() - started:.0f} s", flush=True)
    except Exception:
        systemd_vm.print_diagnostics(vm)
        raise
    finally:
        vm.stop()
        shutil.rmtree(work, ignore_errors=True)
