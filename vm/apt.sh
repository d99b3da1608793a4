# shellcheck shell=bash
# Sourced by the scripts that fetch Debian packages into the download cache
# (vm/fetch-kernels.sh, vm/fetch-debs.sh): a private apt state per suite and
# architecture under $APT_CACHE (CACHE/apt/SUITE for amd64,
# CACHE/apt/SUITE-ARCH for the others), handed to apt-get and apt-cache
# through -o options. The system's apt configuration is only read, for the
# archive's address; no architecture or source is ever added to it.
# The caller sets APT_CACHE and defines die().

keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# The archive and security archive URIs of the host's own apt sources
# (deb822 .sources files or the one-line format).
archive='' security=''
read_sources()
{
	local f line uris suites u
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] || continue
		# one stanza per paragraph: print "URIS|SUITES" for deb stanzas
		while IFS='|' read -r uris suites; do
			for u in $uris; do
				if [[ " $suites" == *-security* ]]; then
					security=${security:-$u}
				else
					archive=${archive:-$u}
				fi
			done
		done < <(awk -v RS= -F '\n' '{
				t = u = s = ""
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^Types:/) t = $i
					if ($i ~ /^URIs:/) { u = $i; sub(/^URIs:[ \t]*/, "", u) }
					if ($i ~ /^Suites:/) { s = $i; sub(/^Suites:[ \t]*/, "", s) }
				}
				if (t ~ /(^|[ \t])deb([ \t]|$)/ && u != "") print u "|" s
			}' "$f")
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f $f ]] || continue
		while read -r line; do
			# deb [options] URI SUITE COMPONENT...
			[[ $line =~ ^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+)[[:space:]]+([^[:space:]]+) ]] ||
				continue
			u=${BASH_REMATCH[2]} suites=${BASH_REMATCH[3]}
			if [[ $suites == *-security* ]]; then
				security=${security:-$u}
			else
				archive=${archive:-$u}
			fi
		done < "$f"
	done
	[[ -n $archive ]] || die "no Debian archive URI in /etc/apt/sources.list{,.d} to fetch from"
}

# apt_dir SUITE ARCH: the state directory of SUITE's ARCH lists.
apt_dir()
{
	if [[ $2 == amd64 ]]; then
		echo "$APT_CACHE/$1"
	else
		echo "$APT_CACHE/$1-$2"
	fi
}

# apt_opts SUITE ARCH: the options that point apt at that state, and at
# ARCH's packages only.
apt_opts()
{
	local d
	d=$(apt_dir "$1" "$2")
	echo "-o Dir::Etc::sourcelist=$d/sources.list -o Dir::Etc::sourceparts=-" \
	     "-o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache" \
	     "-o Dir::State::status=$d/status" \
	     "-o APT::Architecture=$2 -o APT::Architectures=$2" \
	     "$( ((EUID == 0)) && echo "-o APT::Sandbox::User=root")"
}

# update_lists SUITE ARCH DIR: apt-get update into DIR, every index fetched
# (apt-get exits 0 on some fetch errors: a missing index is one). A mirror
# caught mid-sync ("File has unexpected size") may heal within minutes:
# three tries, 30 s apart. If then only indexes of SUITE-security or
# SUITE-updates are missing, it goes on with a warning: every package the
# project fetches is in SUITE itself, at its point release's version.
update_lists()
{
	local try failed rc
	for try in 1 2 3; do
		echo "apt: apt-get update for $1 ($2)$( ((try > 1)) && echo ", try $try")" >&2
		rc=0
		# shellcheck disable=SC2046
		apt-get $(apt_opts "$1" "$2") -q update > "$3/update.log" 2>&1 || rc=$?
		# (callers may run under set -euo pipefail)
		failed=$(grep -oE '^(W|E): Failed to fetch [^ ]+' "$3/update.log" |
			awk '{ print $NF }' || true)
		if ((rc == 0)) &&
		   ! grep -qE '^(W|E): (Failed|Some index files failed)' "$3/update.log"; then
			return 0
		fi
		cat "$3/update.log" >&2
		((try < 3)) || break
		echo "apt: an index could not be fetched; again in 30 s" >&2
		sleep 30
	done
	# apt-get exits 100 when an index failed; only then is the list known
	if ((rc == 0 || rc == 100)) && [[ -n $failed ]] &&
	   ! grep -vqE "/dists/$1-(security|updates)/" <<< "$failed"; then
		echo "apt: warning: going on without ${failed//$'\n'/ }: the packages come from $1 itself" >&2
		return 0
	fi
	die "apt-get update for $1 ($2) failed, three times"
}

# prepare_suite SUITE ARCH: writes the sources list and refreshes the lists
# when missing or a day old (FETCH_UPDATE=1: now).
prepare_suite()
{
	local suite=$1 arch=$2 d list
	d=$(apt_dir "$suite" "$arch")
	[[ -n $archive ]] || read_sources
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	: > "$d/status.new"
	mv "$d/status.new" "$d/status"
	list="deb [signed-by=$keyring] $archive $suite main"
	if [[ $suite != sid ]]; then
		list+=$'\n'"deb [signed-by=$keyring] $archive $suite-updates main"
		[[ -z $security ]] ||
			list+=$'\n'"deb [signed-by=$keyring] $security $suite-security main"
	fi
	if [[ ! -f $d/sources.list || $(<"$d/sources.list") != "$list" ]]; then
		echo "$list" > "$d/sources.list"
		rm -f "$d/updated"
	fi
	if [[ ${FETCH_UPDATE:-0} == 1 ]] ||
	   [[ ! -f $d/updated || -n $(find "$d/updated" -mmin +1440) ]]; then
		update_lists "$suite" "$arch" "$d"
		touch "$d/updated"	# (apt dates the lists by the archive's clock)
	fi
}

# first_dep SUITE ARCH PKG PATTERN: PKG's first dependency whose name matches.
first_dep()
{
	local out
	# shellcheck disable=SC2046
	out=$(apt-cache $(apt_opts "$1" "$2") depends "$3" 2>&1) ||
		{ echo "apt: apt-cache depends $3 ($1, $2): $out" >&2; return 1; }
	awk -v re="$4" '$1 == "Depends:" && $2 ~ re && !found { print $2; found = 1 }' <<< "$out"
}

# apt_download SUITE ARCH DIR PKG...: the packages' .deb files into DIR.
apt_download()
{
	local suite=$1 arch=$2 dir=$3
	shift 3
	# apt-get download writes into the current directory; as root it may
	# run the fetch as the _apt user, which is told to stay root above.
	# shellcheck disable=SC2046
	(cd "$dir" && apt-get $(apt_opts "$suite" "$arch") -q download "$@" > /dev/null)
}
