/*
 * waitline.c — first-come, first-served lines of waiting members (waitline.h).
 */
#include "waitline.h"

#include <stddef.h>

void
wl_init(wl_line *lines, int nlines, wl_node *nodes, int nnodes)
{
	int			i;

	for (i = 0; i < nlines; i++)
	{
		lines[i].head = -1;
		lines[i].tail = -1;
		lines[i].length = 0;
	}
	for (i = 0; i < nnodes; i++)
	{
		nodes[i].line = -1;
		nodes[i].prev = -1;
		nodes[i].next = -1;
	}
}

int
wl_join(wl_line *lines, wl_node *nodes, int line, int m)
{
	wl_line    *l = &lines[line];
	int			before = l->length;

	nodes[m].line = line;
	nodes[m].prev = l->tail;
	nodes[m].next = -1;
	if (l->tail >= 0)
		nodes[l->tail].next = m;
	else
		l->head = m;
	l->tail = m;
	l->length++;
	return before;
}

int
wl_leave(wl_line *lines, wl_node *nodes, int m)
{
	wl_node    *n = &nodes[m];
	wl_line    *l;
	int			woken = -1;

	if (n->line < 0)
		return -1;
	l = &lines[n->line];
	if (n->prev >= 0)
		nodes[n->prev].next = n->next;
	else
	{
		/* m was first: whoever follows it is first now */
		l->head = n->next;
		woken = n->next;
	}
	if (n->next >= 0)
		nodes[n->next].prev = n->prev;
	else
		l->tail = n->prev;
	l->length--;
	n->line = -1;
	n->prev = -1;
	n->next = -1;
	return woken;
}
