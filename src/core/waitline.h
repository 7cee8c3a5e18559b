/*
 * waitline.h — first-come, first-served lines of waiting members.
 *
 * Members are small numbers (0 .. nnodes-1, a backend's proc number in
 * base36id_gen.c), lines too (0 .. nlines-1, a base36id worker).  A member
 * waits in at most one line at a time.  Each line is a doubly linked list
 * threaded through the members' nodes, so that joining, leaving from any
 * place (a waiter that is cancelled) and finding the first are O(1), in
 * arrays the caller provides (shared memory), with indexes rather than
 * pointers.  The caller serialises all calls on the same arrays (a lock).
 */
#ifndef IDGEN_CORE_WAITLINE_H
#define IDGEN_CORE_WAITLINE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct wl_line
{
	int32_t		head;			/* first member, -1: nobody waits */
	int32_t		tail;			/* last member, -1: nobody waits */
	int32_t		length;			/* members in the line */
} wl_line;

typedef struct wl_node
{
	int32_t		line;			/* the line the member waits in, -1: none */
	int32_t		prev;			/* member before it, -1: it is first */
	int32_t		next;			/* member after it, -1: it is last */
} wl_node;

/* empty lines, no member waiting */
extern void wl_init(wl_line *lines, int nlines, wl_node *nodes, int nnodes);

static inline bool
wl_empty(const wl_line *line)
{
	return line->head < 0;
}

/* the line member m waits in, or -1 */
static inline int
wl_line_of(const wl_node *nodes, int m)
{
	return nodes[m].line;
}

/* whether m is the first of the line it waits in */
static inline bool
wl_is_first(const wl_line *lines, const wl_node *nodes, int m)
{
	return nodes[m].line >= 0 && lines[nodes[m].line].head == m;
}

/* m, waiting nowhere, joins the end of line; returns how many wait before it */
extern int	wl_join(wl_line *lines, wl_node *nodes, int line, int m);

/*
 * m leaves the line it waits in (nothing if it waits nowhere).  Returns the
 * member that became first because m was first, to be woken; -1 otherwise.
 */
extern int	wl_leave(wl_line *lines, wl_node *nodes, int m);

#endif							/* IDGEN_CORE_WAITLINE_H */
