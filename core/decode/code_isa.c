/* The instruction set of a backend's traced code (hwt_decoder_ops'
 * code_isa op): what the core walks the code in where it builds ranges
 * between branches itself, as the virtual LBR does. It is the trace's
 * ISA, which is not always the machine's that wrote the file: the
 * emulator writes x86-64 Intel PT and BTS captures on arm64 hosts too. */
#include "hwtrace/backend.h"

enum hwt_isa hwt_decoder_code_isa_x86_64(const struct hwt_decode_params *params)
{
	(void)params;
	return HWT_ISA_X86_64;
}

enum hwt_isa hwt_backend_code_isa(const struct hwt_backend *backend,
				  const struct hwt_decode_params *params)
{
	if (!backend->decoder || !backend->decoder->code_isa)
		return HWT_ISA_UNKNOWN;
	return backend->decoder->code_isa(params);
}
