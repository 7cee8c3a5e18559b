# idgen — PGXS build.  `make && make install`, then CREATE EXTENSION idgen.

EXTENSION = idgen
MODULE_big = idgen

CORE_OBJS = src/core/uuidtext.o src/core/iuid_layout.o src/core/monotonic.o src/core/base36.o \
	src/core/distid.o src/core/base62.o src/core/publicid.o src/core/flaxid.o \
	src/core/keyfile.o src/core/waitline.o src/core/b36sync.o src/core/b36gen.o
OBJS = src/idgen.o src/random.o src/shmem.o src/fixedid.o src/iuid.o src/base36id.o src/base36id_gen.o src/base36id_sync.o src/distid.o \
	src/publicid.o src/flaxid.o src/stats.o src/ownerddl.o $(CORE_OBJS)

# AES for public ids, from the libcrypto PostgreSQL itself links
SHLIB_LINK += -lcrypto

# relative to the source directory, also in VPATH builds (pg_buildext builds in build-<version>/)
DATA = $(patsubst $(srcdir)/%,%,$(wildcard $(srcdir)/sql/idgen--*.sql))

# pg_regress inputs sql/<name>.sql, outputs expected/<name>.out.  The
# hostile database (doc/security.md): its setup runs second, its verdict
# last; `make installcheck HOSTILE=` leaves both out.  sqlstates calls
# every function with every probe value, thousands of statements:
# `SQLSTATES=` leaves it out where each statement would start a parallel
# worker (tools/test.sh's regress-parallel: 27 of its 80 s).
# base36id_generate needs a server that preloads idgen with idgen.worker_id
# set: `make installcheck WORKER=yes` adds it (tools/test.sh's regression
# clusters have a worker id); without, base36id.sql checks whatever the
# server has.
HOSTILE = yes
SQLSTATES = yes
WORKER =
REGRESS = setup $(if $(HOSTILE),hostile_setup) iuid base36id $(if $(WORKER),base36id_generate) distid publicid flaxid ranges partitions partition_life \
	markings upgrade monitoring security ownerddl soft_errors skipscan worker_ids $(if $(SQLSTATES),sqlstates) crosstype coretypes \
	$(if $(HOSTILE),hostile)

PG_CPPFLAGS = -I$(srcdir)/src

# before the include: pgxs.mk reads EXTRA_CLEAN as it is included
EXTRA_CLEAN = idgen.map

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# a VPATH build writes objects into a tree of its own
ifdef VPATH
$(shell mkdir -p src/core)
endif

$(OBJS): $(wildcard $(srcdir)/src/*.h $(srcdir)/src/core/*.h)

# `make dist`: the PGXN zip of the committed tree (git archive of HEAD), named
# and rooted NAME-VERSION/ as in META.json; DISTDIR chooses where it goes
DIST_VERSION = $(shell sed -n 's/^   "version": "\(.*\)",$$/\1/p' $(srcdir)/META.json)
DISTDIR ?= .
.PHONY: dist
dist:
	git -C $(srcdir) archive --format=zip --prefix=$(EXTENSION)-$(DIST_VERSION)/ \
		-o $(abspath $(DISTDIR))/$(EXTENSION)-$(DIST_VERSION).zip HEAD

# Export only what PostgreSQL looks up in the module: _PG_init, the magic
# block and the SQL-callable functions (each has a pg_finfo_ record).
# PostgreSQL 15 loads modules with RTLD_GLOBAL and, unlike 16 and later,
# does not build them with -fvisibility=hidden, so every other global would
# be visible to (and could clash with) other libraries of the server.
ifeq ($(PORTNAME),linux)
NM ?= nm
idgen.map: $(OBJS)
	{ echo '{ global: _PG_init; Pg_magic_func;'; \
	  $(NM) -g --defined-only $(OBJS) | sed -n 's/^[0-9a-fA-F]* T pg_finfo_\(.*\)$$/  pg_finfo_\1; \1;/p'; \
	  echo '  local: *; };'; } >$@
SHLIB_LINK += -Wl,--version-script=idgen.map
idgen$(DLSUFFIX): idgen.map
endif
