/* idgen--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION idgen UPDATE TO '1.1'" to load this file. \quit

-- Generators keep their state in the backend that runs them: a parallel
-- worker would start a sequence of its own, so they run in the leader only.
ALTER FUNCTION iuid_generate(int4, int4) PARALLEL RESTRICTED;
ALTER FUNCTION iuid_generate(int4, int4, timestamptz) PARALLEL RESTRICTED;
ALTER FUNCTION base36id_generate() PARALLEL RESTRICTED;
ALTER FUNCTION distid_generate() PARALLEL RESTRICTED;
ALTER FUNCTION distid128_generate() PARALLEL RESTRICTED;
ALTER FUNCTION flaxid_generate() PARALLEL RESTRICTED;
