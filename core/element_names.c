#include "hwtrace/element.h"

const char *hwt_elem_type_name(enum hwt_elem_type type)
{
	switch (type) {
	case HWT_ELEM_RANGE: return "range";
	case HWT_ELEM_BRANCH: return "branch";
	case HWT_ELEM_TRACE_ON: return "trace_on";
	case HWT_ELEM_TRACE_OFF: return "trace_off";
	case HWT_ELEM_TIMESTAMP: return "timestamp";
	case HWT_ELEM_CONTEXT: return "context";
	case HWT_ELEM_GAP: return "gap";
	case HWT_ELEM_ERROR: return "error";
	case HWT_ELEM_SAMPLE: return "sample";
	}
	return "unknown";
}

const char *hwt_branch_kind_name(enum hwt_branch_kind kind)
{
	switch (kind) {
	case HWT_BRANCH_CALL: return "call";
	case HWT_BRANCH_RETURN: return "return";
	case HWT_BRANCH_JUMP: return "jump";
	case HWT_BRANCH_COND: return "cond";
	case HWT_BRANCH_INDIRECT: return "indirect";
	case HWT_BRANCH_SYSCALL: return "syscall";
	case HWT_BRANCH_SYSRET: return "sysret";
	case HWT_BRANCH_EXCEPTION: return "exception";
	case HWT_BRANCH_INTERRUPT: return "interrupt";
	case HWT_BRANCH_ERET: return "eret";
	}
	return "unknown";
}

const char *hwt_isa_name(enum hwt_isa isa)
{
	switch (isa) {
	case HWT_ISA_X86_64: return "x86_64";
	case HWT_ISA_X86_32: return "x86_32";
	case HWT_ISA_X86_16: return "x86_16";
	case HWT_ISA_A64: return "a64";
	case HWT_ISA_A32: return "a32";
	case HWT_ISA_T32: return "t32";
	case HWT_ISA_RV32: return "rv32";
	case HWT_ISA_RV64: return "rv64";
	case HWT_ISA_UNKNOWN: break;
	}
	return "unknown";
}

const char *hwt_gap_reason_name(enum hwt_gap_reason reason)
{
	switch (reason) {
	case HWT_GAP_TRUNCATED: return "truncated";
	case HWT_GAP_COLLISION: return "collision";
	case HWT_GAP_LOST: return "lost";
	case HWT_GAP_OVERFLOW: return "overflow";
	case HWT_GAP_DECODE_ERROR: return "decode_error";
	case HWT_GAP_NO_SYNC: return "no_sync";
	case HWT_GAP_NO_IMAGE: return "no_image";
	}
	return "unknown";
}
