#!/usr/bin/env bash
# run-in-vm.sh - run a command inside one or more throw-away QEMU Linux
# guests (KVM when usable, else TCG) that have a Soft-RoCE (rdma_rxe) RDMA
# device "rxe0", with the host's root filesystem visible (read-only,
# copy-on-write) inside the guest.  rdmpi's real-verbs test harness; adapted
# from the project's shared rdma-vm recipe so that it works from a clean clone.
#
#   run-in-vm.sh [options] -- command [args...]
#
# See test/rdma-vm/README.md for details.  Exit status: the command's
# exit status (with --nodes N: the first non-zero one, in node order), 124 on
# timeout, 125 if the VM machinery itself failed.
#
# rdmpi additions: every guest sees the same read-write "drop" directory at
# $RDMPI_VM_DROP (/run/rxe-vm/drop), used by vm-agent.sh / vm-runner.sh to
# start processes on other guests (mpirun --launch-agent).
set -euo pipefail

PROG=${0##*/}
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"   # depmod/modprobe for non-root users
SCRIPT_VERSION=8   # bump to force a rebuild of cached images

usage() {
  cat <<EOF
Usage: $PROG [options] -- command [args...]

Boots N (default 1) QEMU guests (KVM if usable, else TCG) running a stock
Debian kernel, attaches a Soft-RoCE (rdma_rxe) device 'rxe0' to each guest's
eth0, and runs the command
in every guest (chrooted into the host's root filesystem, read-only with a
tmpfs overlay; the current directory is shared read-write by default).

Options:
  -n, --nodes N        number of guests, all on one virtual L2 network (default 1;
                       2 nodes: direct unix stream link, >2: vde_switch from vde2)
  -t, --timeout SECS   kill the guests after SECS seconds, exit 124 (default 600)
  -m, --mem MiB        memory per guest (default 2048; 1024 with more than 2 nodes)
  -c, --cpus N         vCPUs per guest (default: host cores / nodes, 1..2)
      --mtu N          eth0 MTU in the guests (default 1500 -> RDMA MTU 1024;
                       use e.g. 4200 for an active RDMA MTU of 4096)
      --share DIR      also share host DIR read-write at the same path (repeatable)
      --no-share-cwd   do not share the current directory read-write
      --subnet A.B.C   guest IPv4 /24 (default 10.77.0; node i gets A.B.C.(i+1))
  -k, --keep           keep the run directory (console logs, outputs)
  -v, --verbose        print guest console logs and timings to stderr
      --build-only     only build/refresh the cached kernel+initramfs and exit
      --rebuild        force rebuilding the cached kernel+initramfs
  -h, --help           this help

Inside the guest the command sees: RXE_NODE_ID, RXE_NODES, RXE_NODE_IP,
RXE_NODE_IPS (space separated, node order), RXE_DEV (rxe0), RXE_GID_INDEX (GID
index of the IPv4 RoCEv2 GID, use it for 'ibv_*_pingpong -g' / perftest '-x'),
host names node0..node(N-1) in /etc/hosts, RDMPI_VM_DROP (a directory
shared read-write by all guests of the run), and the rest of the caller's
environment.  Memlock limit is unlimited.

Environment: RXE_VM_CACHE (cache dir, default /var/cache/rdmpi-rxe-vm as root,
else \${XDG_CACHE_HOME:-~/.cache}/rdmpi-rxe-vm), RXE_VM_KERNEL_PKG (Debian kernel package
to use, default: what linux-image-amd64 depends on), RXE_VM_NO_INSTALL=1 (never
apt-get install missing host packages), RXE_VM_QEMU_ARGS (extra qemu args),
RXE_VM_NIC (QEMU network device: default virtio-net-pci in one guest, e1000
between guests),
RXE_VM_ACCEL=auto|kvm|tcg|kvm-try (default auto: KVM unless it is unusable,
e.g. kvm_pvm; kvm-try = try KVM, fall back to TCG if the guest does not boot
within RXE_VM_KVM_BOOT_TIMEOUT=30 s).
EOF
}

die()  { echo "$PROG: error: $*" >&2; exit 125; }
info() { [[ $VERBOSE == 1 ]] && echo "$PROG: $*" >&2; return 0; }
note() { echo "$PROG: $*" >&2; }

# ------------------------------------------------------------------ options
NODES=1 TIMEOUT=600 MEM='' CPUS='' MTU=1500 SHARE_CWD=1 SUBNET=10.77.0
KEEP=0 VERBOSE=0 BUILD_ONLY=0 REBUILD=0
SHARES=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n|--nodes)    NODES=${2:?}; shift 2;;
    -t|--timeout)  TIMEOUT=${2:?}; shift 2;;
    -m|--mem)      MEM=${2:?}; shift 2;;
    -c|--cpus)     CPUS=${2:?}; shift 2;;
    --mtu)         MTU=${2:?}; shift 2;;
    --share)       SHARES+=("$(realpath -e -- "${2:?}")") || die "no such dir: $2"; shift 2;;
    --no-share-cwd) SHARE_CWD=0; shift;;
    --subnet)      SUBNET=${2:?}; shift 2;;
    -k|--keep)     KEEP=1; shift;;
    -v|--verbose)  VERBOSE=1; shift;;
    --build-only)  BUILD_ONLY=1; shift;;
    --rebuild)     REBUILD=1; shift;;
    -h|--help)     usage; exit 0;;
    --)            shift; break;;
    -*)            echo "$PROG: unknown option $1" >&2; usage >&2; exit 125;;
    *)             break;;
  esac
done
[[ $NODES =~ ^[1-9][0-9]*$ && $NODES -le 200 ]] || die "--nodes must be 1..200"
[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer"
# defaults: share the host's cores between the guests (1..2 vCPUs each)
if [[ -z $CPUS ]]; then CPUS=$(( $(nproc) / NODES )); (( CPUS < 1 )) && CPUS=1; (( CPUS > 2 )) && CPUS=2; fi
if [[ -z $MEM ]]; then if [[ $NODES -le 2 ]]; then MEM=2048; else MEM=1024; fi; fi
[[ $MEM =~ ^[0-9]+$ && $CPUS =~ ^[0-9]+$ && $MTU =~ ^[0-9]+$ ]] || die "bad --mem/--cpus/--mtu"
[[ $SUBNET =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "--subnet must look like 10.77.0"
if [[ $BUILD_ONLY == 0 && $# -eq 0 ]]; then usage >&2; exit 125; fi

if [[ $(id -u) == 0 ]]; then
  CACHE=${RXE_VM_CACHE:-/var/cache/rdmpi-rxe-vm}
else
  CACHE=${RXE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmpi-rxe-vm}
fi

# Kernel modules the guest needs (their dependencies are resolved at build time).
GUEST_MODULES="virtio_pci virtio_net e1000 virtio_rng 9pnet_virtio 9p overlay crc32_generic crc32-pclmul rdma_rxe rdma_ucm ib_uverbs ib_umad"
# modules that may fail to load (e.g. CPU feature missing) without being reported
OPTIONAL_MODULES="crc32-pclmul.ko virtio-rng.ko"

# ------------------------------------------------------------ host packages
# command -> Debian package providing it
declare -A NEED=(
  [qemu-system-x86_64]=qemu-system-x86 [busybox]=busybox-static [cpio]=cpio
  [depmod]=kmod [modprobe]=kmod [apt-get]=apt [dpkg-deb]=dpkg [flock]=util-linux
  [gzip]=gzip [xz]=xz-utils [zstd]=zstd [tail]=coreutils [timeout]=coreutils
  [rdma]=iproute2 [ibv_devices]=ibverbs-utils
)
# packages that matter *inside* the guest (they are read from the host root)
GUEST_PKGS="rdma-core ibverbs-providers ibverbs-utils libibverbs1 librdmacm1 rdmacm-utils perftest iproute2"

ensure_host_packages() {
  local missing=() c p
  [[ $NODES -gt 2 ]] && NEED[vde_switch]=vde2
  for c in "${!NEED[@]}"; do command -v "$c" >/dev/null 2>&1 || missing+=("${NEED[$c]}"); done
  # busybox must be the static one (it goes into the initramfs)
  if command -v busybox >/dev/null 2>&1 && ! busybox_is_static; then missing+=(busybox-static); fi
  for p in $GUEST_PKGS; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p"); done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  if [[ ${RXE_VM_NO_INSTALL:-0} == 1 || $(id -u) != 0 ]]; then
    die "missing host packages: ${missing[*]} (apt-get install ${missing[*]})"
  fi
  note "installing host packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >"${TMPDIR:-/tmp}/rxe-vm-apt.log" 2>&1; then
    apt-get update -q </dev/null >>"${TMPDIR:-/tmp}/rxe-vm-apt.log" 2>&1 || true
    apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >>"${TMPDIR:-/tmp}/rxe-vm-apt.log" 2>&1 \
      || { tail -20 "${TMPDIR:-/tmp}/rxe-vm-apt.log" >&2; die "apt-get install ${missing[*]} failed"; }
  fi
}
busybox_is_static() {
  local b; b=$(command -v busybox) || return 1
  # a static binary has no PT_INTERP/dynamic section; ldd says "not a dynamic executable"
  ! LC_ALL=C ldd "$b" >/dev/null 2>&1
}

# ------------------------------------------------------------- guest /init
write_init() {
cat <<'INIT'
#!/bin/sh
# rxe-vm guest init (runs from the initramfs, busybox only)
export PATH=/bin:/sbin
/bin/busybox --install -s /bin 2>/dev/null
mkdir -p /proc /sys /dev /tmp /lower /rw /newroot /xfer
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1
log() { echo "rxe-init: $*"; }
fail() { log "FATAL: $*"; echo "$*" > /xfer/fatal.$NODE 2>/dev/null; sync; poweroff -f; sleep 5; echo o > /proc/sysrq-trigger; }

NODE=0 NODES=1 MTU=1500 SUBNET=10.77.0
for a in $(cat /proc/cmdline); do
  case "$a" in
    rxe.node=*)   NODE=${a#*=};;
    rxe.nodes=*)  NODES=${a#*=};;
    rxe.mtu=*)    MTU=${a#*=};;
    rxe.subnet=*) SUBNET=${a#*=};;
  esac
done
IP=$SUBNET.$((NODE + 1))

while read -r ko opt; do
  if [ "$opt" = optional ]; then insmod "/lib/modules/$ko" 2>/dev/null
  else insmod "/lib/modules/$ko" || log "insmod $ko failed"; fi
done < /modules.list

O9P="trans=virtio,version=9p2000.L,msize=262144"
mount -t 9p -o "$O9P,cache=none" xfer /xfer || fail "cannot mount xfer 9p share"
mount -t 9p -o "$O9P,ro,cache=loose" hostroot /lower || fail "cannot mount hostroot 9p share"

# writable copy-on-write view of the host root: 9p (ro) + tmpfs upper
mount -t tmpfs -o mode=0755 tmpfs /rw
mkdir -p /rw/upper /rw/work
if mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work,xino=off,index=off,redirect_dir=off,metacopy=off /newroot; then
  OVERLAY=1
else
  log "overlayfs failed, falling back to read-only root with tmpfs on /tmp /run /var/tmp"
  OVERLAY=0
  mount --bind /lower /newroot
fi
R=/newroot
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm 2>/dev/null
# devtmpfs has no /dev/fd: bash process substitution needs it
ln -s /proc/self/fd $R/dev/fd 2>/dev/null
ln -s /proc/self/fd/0 $R/dev/stdin 2>/dev/null
ln -s /proc/self/fd/1 $R/dev/stdout 2>/dev/null
ln -s /proc/self/fd/2 $R/dev/stderr 2>/dev/null
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $R/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $R/dev/shm
mount -t tmpfs -o mode=0755 tmpfs $R/run
if [ $OVERLAY = 0 ]; then
  mount -t tmpfs -o mode=1777 tmpfs $R/tmp
  mount -t tmpfs -o mode=1777 tmpfs $R/var/tmp
fi
mkdir -p $R/run/rxe-vm
mount --bind /xfer $R/run/rxe-vm
# read-write shares: lines "<tag> <path>"
if [ -f /xfer/shares.list ]; then
  while read -r tag path; do
    [ -n "$tag" ] || continue
    mkdir -p "$R$path" 2>/dev/null
    mount -t 9p -o "$O9P,cache=none" "$tag" "$R$path" || log "cannot mount share $tag at $path"
  done < /xfer/shares.list
fi

# ---- network + rxe
hostname "node$NODE"
sysctl -qw net.ipv6.conf.all.accept_dad=0 net.ipv6.conf.default.accept_dad=0 2>/dev/null
ip link set lo up
i=0; while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
[ -e /sys/class/net/eth0 ] || fail "no eth0"
ip link set eth0 mtu "$MTU" || log "cannot set mtu $MTU"
ip addr add "$IP/24" dev eth0
ip link set eth0 up
IPS=""; n=0; while [ $n -lt "$NODES" ]; do IPS="$IPS $SUBNET.$((n+1))"; n=$((n+1)); done; IPS=${IPS# }
if [ $OVERLAY = 1 ]; then
  echo "node$NODE" > $R/etc/hostname
  { echo "127.0.0.1 localhost"; echo "::1 localhost ip6-localhost ip6-loopback"
    n=0; for a in $IPS; do echo "$a node$n"; n=$((n+1)); done; } > $R/etc/hosts
fi
chroot $R rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0 failed"
# find the GID index of the IPv4 (RoCEv2) GID
HEX=$(printf '%02x%02x:%02x%02x' $(echo "$IP" | tr . ' '))
GIDX=""; i=0
while [ -z "$GIDX" ] && [ $i -lt 200 ]; do
  for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
    case "$(cat $g 2>/dev/null)" in
      *":ffff:$HEX") GIDX=${g##*/}; break;;
    esac
  done
  [ -n "$GIDX" ] || sleep 0.05; i=$((i+1))
done
[ -n "$GIDX" ] || { log "IPv4 GID not found, using 1"; GIDX=1; }
# the port is active once eth0 has carrier: at once on virtio-net, after
# the e1000 driver's link watchdog (every 2 s) on e1000
i=0
while ! grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null && [ $i -lt 600 ]; do
  sleep 0.05; i=$((i+1))
done
grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null || log "rxe0 port 1 not active after 30 s"

# ---- run the command
read -r UP0 _ < /proc/uptime
echo "$UP0" > /xfer/boot.$NODE
export RXE_NODE_ID=$NODE RXE_NODES=$NODES RXE_NODE_IP=$IP RXE_NODE_IPS="$IPS" RXE_DEV=rxe0 RXE_GID_INDEX=$GIDX
export HOME=/root TERM=dumb
chroot $R /bin/bash /run/rxe-vm/run.sh > /xfer/out.$NODE 2> /xfer/err.$NODE < /dev/null
RC=$?
read -r UP1 _ < /proc/uptime
echo "$UP0 $UP1" > /xfer/time.$NODE
echo $RC > /xfer/rc.$NODE.tmp && mv /xfer/rc.$NODE.tmp /xfer/rc.$NODE
sync
poweroff -f
sleep 5; echo o > /proc/sysrq-trigger
INIT
}

# ------------------------------------------------------ build (cached) image
build_image() {
  local pkg tmp kver
  pkg=${RXE_VM_KERNEL_PKG:-}
  if [[ -z $pkg ]]; then
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
    if [[ -z $pkg && $(id -u) == 0 ]]; then
      apt-get update -q </dev/null >/dev/null 2>&1 || true
      pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
    fi
    [[ -n $pkg ]] || die "cannot find the Debian kernel package (run apt-get update?)"
  fi
  note "building guest image from $pkg into $CACHE (one time)"
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm-build.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" RETURN
  ( cd "$tmp" && apt-get download -q "$pkg" </dev/null >download.log 2>&1 ) \
    || { cat "$tmp/download.log" >&2; die "apt-get download $pkg failed"; }
  dpkg-deb -x "$tmp"/*.deb "$tmp/x"
  kver=$(ls "$tmp/x/lib/modules" | head -1)
  [[ -n $kver && -f $tmp/x/boot/vmlinuz-$kver ]] || die "unexpected layout of $pkg"
  depmod -b "$tmp/x" "$kver"
  local ird=$tmp/initramfs
  mkdir -p "$ird/bin" "$ird/lib/modules"
  cp "$(command -v busybox)" "$ird/bin/busybox"
  ln -s busybox "$ird/bin/sh"
  : > "$ird/modules.list"
  local m path base
  declare -A seen=()
  for m in $GUEST_MODULES; do
    while read -r _ path _; do
      [[ -n ${seen[$path]:-} ]] && continue
      seen[$path]=1
      base=${path##*/}
      case "$base" in
        *.ko)     cp "$path" "$ird/lib/modules/$base";;
        *.ko.xz)  base=${base%.xz};  xz -dc "$path" > "$ird/lib/modules/$base";;
        *.ko.zst) base=${base%.zst}; zstd -qdc "$path" > "$ird/lib/modules/$base";;
        *.ko.gz)  base=${base%.gz};  gzip -dc "$path" > "$ird/lib/modules/$base";;
        *) continue;;
      esac
      case " $OPTIONAL_MODULES " in
        *" $base "*) echo "$base optional" >> "$ird/modules.list";;
        *)           echo "$base" >> "$ird/modules.list";;
      esac
    done < <(modprobe -d "$tmp/x" -S "$kver" --show-depends "$m" | grep '^insmod ')
  done
  grep -q '^rdma_rxe.ko' "$ird/modules.list" || die "rdma_rxe module not found in $pkg"
  write_init > "$ird/init"
  chmod 755 "$ird/init"
  ( cd "$ird" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet | gzip -1 ) > "$CACHE/initrd.img.new"
  # QEMU boots an uncompressed ELF vmlinux directly (PVH entry), which skips the
  # in-guest decompression (~3 s under TCG).  Fall back to the bzImage.
  if extract_vmlinux "$tmp/x/boot/vmlinuz-$kver" > "$CACHE/vmlinuz.new"; then
    info "extracted uncompressed ELF vmlinux"
  else
    cp "$tmp/x/boot/vmlinuz-$kver" "$CACHE/vmlinuz.new"
  fi
  mv "$CACHE/initrd.img.new" "$CACHE/initrd.img"
  mv "$CACHE/vmlinuz.new" "$CACHE/vmlinuz"
  echo "$STAMP" > "$CACHE/stamp"
  echo "$pkg $kver" > "$CACHE/kernel"
  note "guest image ready: kernel $kver"
}

# print the ELF vmlinux embedded (compressed) in a bzImage; like the kernel's
# scripts/extract-vmlinux
extract_vmlinux() {
  local img=$1 magic cmd pos
  grep -q 'CONFIG_PVH=y' "${img/vmlinuz-/config-}" 2>/dev/null || return 1
  for magic in '\xfd7zXZ\x00:xz -dc' '\x28\xb5\x2f\xfd:zstd -qdc' '\x1f\x8b\x08:gzip -dc'; do
    cmd=${magic#*:}
    for pos in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$img" 2>/dev/null | cut -d: -f1); do
      tail -c +$((pos + 1)) "$img" | $cmd 2>/dev/null > "$img.elf" || true
      if [[ $(head -c 4 "$img.elf" | od -An -c | tr -d ' ') == '177ELF' ]]; then
        cat "$img.elf"; rm -f "$img.elf"; return 0
      fi
    done
  done
  rm -f "$img.elf"
  return 1
}

ensure_image() {
  mkdir -p "$CACHE"
  STAMP="v$SCRIPT_VERSION $(write_init | sha256sum | cut -c1-16) ${RXE_VM_KERNEL_PKG:-default} $GUEST_MODULES"
  exec 9>"$CACHE/.lock"
  flock -w 900 9 || die "timed out waiting for lock on $CACHE"
  if [[ $REBUILD == 1 || ! -f $CACHE/stamp || $(cat "$CACHE/stamp") != "$STAMP" || ! -f $CACHE/vmlinuz || ! -f $CACHE/initrd.img ]]; then
    build_image
  fi
  flock -u 9
}

# ------------------------------------------------------------------- main
ensure_host_packages
ensure_image
[[ $BUILD_ONLY == 1 ]] && { note "cache: $CACHE ($(cat "$CACHE/kernel"))"; exit 0; }

# from here on failures are handled explicitly
set +e
T_START=$(date +%s.%N)
RUN=$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm-run.XXXXXX")
chmod 755 "$RUN"
mkdir -m 1777 "$RUN/drop"
QPIDS=() TPIDS=()
cleanup() {
  local p
  for p in "${QPIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${TPIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  if [[ $KEEP == 1 ]]; then note "run directory kept: $RUN"; else rm -rf "$RUN"; fi
}
trap cleanup EXIT
trap 'note "interrupted"; exit 130' INT
trap 'note "terminated"; exit 143' TERM

# the command script run (chrooted) in each guest
{
  echo '#!/bin/bash'
  # caller's environment, minus shell internals and anything the guest sets
  while IFS= read -r name; do
    case "$name" in
      BASH*|SHELLOPTS|RDMPI_VM_DROP|SHLVL|PWD|OLDPWD|_|UID|EUID|PPID|GROUPS|HOSTNAME|HOME|TERM|RXE_NODE*|RXE_DEV|RXE_GID_INDEX|COLUMNS|LINES|TMPDIR) continue;;
    esac
    [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || continue
    printf 'export %s=%q\n' "$name" "${!name}"
  done < <(compgen -e)
  echo 'ulimit -l unlimited 2>/dev/null; ulimit -n 65536 2>/dev/null'
  echo 'export RDMPI_VM_DROP=/run/rxe-vm/drop'
  printf 'cd -- %q 2>/dev/null || cd /\n' "$PWD"
  printf 'set --'; printf ' %q' "$@"; echo
  echo 'exec "$@"'
} > "$RUN/run.sh"

# 9p shares: hostroot (ro), xfer (rw run dir), optional rw shares
SHARE_ARGS=()
i=0
[[ $SHARE_CWD == 1 && $PWD != / ]] && SHARES=("$PWD" "${SHARES[@]}")
: > "$RUN/shares.list"
for d in "${SHARES[@]}"; do
  [[ $d == / ]] && continue
  [[ $d == *' '* || $d == *,* ]] && { note "skipping share with space/comma in path: $d"; continue; }
  SHARE_ARGS+=(-fsdev "local,id=share$i,path=$d,security_model=none,multidevs=remap"
               -device "virtio-9p-pci,fsdev=share$i,mount_tag=share$i")
  echo "share$i $d" >> "$RUN/shares.list"
  i=$((i+1))
done

# ---- accelerator: KVM when it can boot a stock kernel, else TCG
# RXE_VM_ACCEL=kvm|tcg|auto.  In auto mode KVM is tried first (unless known not
# to work), and if the guest has not reached its init within
# RXE_VM_KVM_BOOT_TIMEOUT seconds the run is restarted under TCG.
ACCEL_MODE=${RXE_VM_ACCEL:-auto}
KVM_BAD_STAMP="$CACHE/kvm-unusable-$(uname -r)"
if [[ $ACCEL_MODE == auto ]]; then
  if [[ ! -w /dev/kvm ]]; then
    ACCEL_MODE=tcg; info "/dev/kvm not usable: using TCG (software) emulation"
  elif [[ -d /sys/module/kvm_pvm ]]; then
    # PVM ("pagetable-based VM", KVM without VT-x/SVM) only runs guest kernels
    # built with CONFIG_PVM_GUEST; a stock Debian kernel hangs in early boot.
    ACCEL_MODE=tcg; info "host KVM is kvm_pvm (needs a PVM guest kernel): using TCG"
  elif [[ -f $KVM_BAD_STAMP ]]; then
    ACCEL_MODE=tcg; info "KVM failed to boot the guest before ($KVM_BAD_STAMP): using TCG"
  else
    ACCEL_MODE=kvm-try
  fi
fi
accel_args() {
  case "$1" in
    # -arch-capabilities: nested KVM on AMD hosts rejects MSR 0x10a ("failed to set MSR 0x10a")
    kvm*) echo "-accel kvm -cpu host,-arch-capabilities";;
    tcg)  echo "-accel tcg,thread=multi -cpu max";;
    *)    die "RXE_VM_ACCEL must be kvm, tcg or auto";;
  esac
}

# L2 network between the guests: one unix stream connection for 2 nodes
# (node0 listens, node1 connects), a vde hub otherwise. Not a pair of unix
# datagram sockets (the kernel queues 10 datagrams per socket by default):
# that link stopped for good under bursts of RDMA traffic between the guests
# (both rxe ports active, ARP unanswered); a stream has flow control.
net_args() {  # $1 = node index
  local n=$1
  if [[ $NODES == 1 ]]; then
    echo "-netdev hubport,id=n0,hubid=0"
  elif [[ $NODES == 2 ]]; then
    echo "-netdev stream,id=n0,server=$([[ $n == 0 ]] && echo on || echo off),addr.type=unix,addr.path=$RUN/net.sock"
  else
    echo "-netdev vde,id=n0,sock=$RUN/vde.ctl"
  fi
}

# The guests' network card: virtio-net in one guest; an emulated Intel
# e1000 between guests, since a virtio-net transmit queue stopped for good
# under bursts of RDMA traffic between TCG guests (the guest kernel's
# "NETDEV WATCHDOG: transmit queue 0 timed out"; Debian 12's kernel only
# logs that), taking the link and every later job with it.
NIC=${RXE_VM_NIC:-$([[ $NODES == 1 ]] && echo virtio-net-pci || echo e1000)}

start_guests() {  # $1 = accel mode
  local n mac
  QPIDS=()
  rm -f "$RUN"/boot.* "$RUN"/time.* "$RUN"/rc.* "$RUN"/fatal.* "$RUN"/out.* "$RUN"/err.* \
        "$RUN"/console.* "$RUN"/qemu.* "$RUN"/net*.sock
  if [[ $NODES -gt 2 && ! -S $RUN/vde.ctl/ctl ]]; then
    vde_switch --sock "$RUN/vde.ctl" --daemon --pidfile "$RUN/vde.pid" </dev/null >"$RUN/vde.log" 2>&1 \
      || { cat "$RUN/vde.log" >&2; die "vde_switch failed to start"; }
  fi
  for ((n = 0; n < NODES; n++)); do
    mac=$(printf '52:54:00:77:%02x:%02x' $(( (n >> 8) & 255 )) $(( n & 255 )))
    # shellcheck disable=SC2046
    qemu-system-x86_64 -nodefaults -no-user-config -machine q35 $(accel_args "$1") \
      -m "$MEM" -smp "$CPUS" -display none -monitor none -no-reboot \
      -serial "file:$RUN/console.$n.log" \
      -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd.img" \
      -append "console=ttyS0 quiet loglevel=4 panic=-1 mitigations=off rxe.node=$n rxe.nodes=$NODES rxe.mtu=$MTU rxe.subnet=$SUBNET" \
      -fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
      -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
      -fsdev "local,id=xfer,path=$RUN,security_model=none,multidevs=remap" \
      -device virtio-9p-pci,fsdev=xfer,mount_tag=xfer \
      "${SHARE_ARGS[@]}" \
      $(net_args "$n") -device "$NIC,netdev=n0,mac=$mac,romfile=" \
      -device virtio-rng-pci \
      ${RXE_VM_QEMU_ARGS:-} \
      </dev/null >"$RUN/qemu.$n.log" 2>&1 &
    QPIDS+=($!)
    if [[ $NODES == 2 && $n == 0 ]]; then  # node1 connects to node0's socket
      for _ in $(seq 100); do [[ -S $RUN/net.sock ]] && break; sleep 0.1; done
      [[ -S $RUN/net.sock ]] || die "node0's QEMU did not open its network socket $RUN/net.sock"
    fi
  done
  info "started $NODES guest(s) ($1), run dir $RUN"
}

any_alive() { local p; for p in "${QPIDS[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
kill_guests() {
  local p
  for p in "${QPIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in 1 2 3 4 5 6 7 8 9 10; do any_alive || break; sleep 0.2; done
  for p in "${QPIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for p in "${QPIDS[@]}"; do wait "$p" 2>/dev/null || true; done
}
all_booted() { local n; for ((n = 0; n < NODES; n++)); do [[ -f $RUN/boot.$n || -f $RUN/fatal.$n || -f $RUN/rc.$n ]] || return 1; done; }

DEADLINE=$(( $(date +%s) + TIMEOUT ))
if [[ $ACCEL_MODE == kvm-try ]]; then
  start_guests kvm
  KVM_DEADLINE=$(( $(date +%s) + ${RXE_VM_KVM_BOOT_TIMEOUT:-30} ))
  while ! all_booted && any_alive && [[ $(date +%s) -lt $KVM_DEADLINE ]]; do sleep 0.1; done
  if all_booted; then
    ACCEL_MODE=kvm
  else
    note "KVM guest did not boot ($(head -c 300 "$RUN/qemu.0.log" | tr '\n' ' ')); falling back to TCG (slow)"
    kill_guests
    : > "$KVM_BAD_STAMP" 2>/dev/null || true
    ACCEL_MODE=tcg
    start_guests tcg
  fi
else
  start_guests "$ACCEL_MODE"
fi

# stream the command's output while it runs
for ((n = 0; n < NODES; n++)); do
  : >> "$RUN/out.$n"; : >> "$RUN/err.$n"
  if [[ $NODES == 1 ]]; then
    tail -n +1 -s 0.2 -f --pid="${QPIDS[$n]}" "$RUN/out.$n" &
    TPIDS+=($!)
    tail -n +1 -s 0.2 -f --pid="${QPIDS[$n]}" "$RUN/err.$n" >&2 &
    TPIDS+=($!)
  else
    tail -n +1 -s 0.2 -f --pid="${QPIDS[$n]}" "$RUN/out.$n" | sed -u "s/^/[node$n] /" &
    TPIDS+=($!)
    tail -n +1 -s 0.2 -f --pid="${QPIDS[$n]}" "$RUN/err.$n" | sed -u "s/^/[node$n] /" >&2 &
    TPIDS+=($!)
  fi
done

# wait for all guests, enforce the timeout
TIMED_OUT=0
while any_alive; do
  if [[ $(date +%s) -ge $DEADLINE ]]; then
    TIMED_OUT=1
    note "timeout after ${TIMEOUT}s, killing the guest(s)"
    kill_guests
    break
  fi
  sleep 0.1
done
for p in "${QPIDS[@]}"; do wait "$p" 2>/dev/null || true; done
for p in "${TPIDS[@]}"; do wait "$p" 2>/dev/null || true; done
QPIDS=() TPIDS=()
if [[ -f $RUN/vde.pid ]]; then kill "$(cat "$RUN/vde.pid")" 2>/dev/null || true; fi
T_END=$(date +%s.%N)

# collect exit statuses
show_qemu_log() {  # $1 = node
  local l
  l=$(grep -v 'is not connected to host network' "$RUN/qemu.$1.log" 2>/dev/null || true)
  [[ -n $l ]] && { note "node$1: qemu log:"; printf '%s\n' "$l" | sed 's/^/  /' >&2; }
  return 0
}
STATUS=0
for ((n = 0; n < NODES; n++)); do
  if [[ -f $RUN/rc.$n ]]; then
    rc=$(cat "$RUN/rc.$n")
    [[ $STATUS == 0 && $rc != 0 ]] && STATUS=$rc
  else
    [[ $STATUS == 0 ]] && STATUS=125
    [[ $TIMED_OUT == 1 ]] && STATUS=124
    note "node$n: no exit status from the guest$([[ -f $RUN/fatal.$n ]] && echo ": $(cat "$RUN/fatal.$n")")"
    if [[ $VERBOSE == 0 ]]; then
      show_qemu_log "$n"
      note "node$n: last lines of the guest console:"; tail -n 30 "$RUN/console.$n.log" 2>/dev/null | sed 's/^/  /' >&2
    fi
  fi
  if [[ $VERBOSE == 1 ]]; then
    show_qemu_log "$n"
    note "node$n: guest console:"; sed 's/^/  /' "$RUN/console.$n.log" >&2
    if [[ -f $RUN/time.$n ]]; then
      read -r up0 up1 < "$RUN/time.$n"
      note "node$n: guest kernel boot -> command start ${up0}s, command ran $(awk -v a="$up0" -v b="$up1" 'BEGIN{printf "%.2f", b-a}')s"
    fi
  fi
done
info "accel $ACCEL_MODE, total wall time $(awk -v a="$T_START" -v b="$T_END" 'BEGIN{printf "%.2f", b-a}')s, exit status $STATUS"
exit "$STATUS"
