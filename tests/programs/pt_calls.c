/* pt_calls: main calls work() 40 times in a loop and returns 0. Its
 * code is written out instruction by instruction so that it is known
 * exactly: pt_calls_capture (tests/tools/) writes the Intel PT packets
 * a trace unit writes for a run of it, finding these places through the
 * global symbols. x86-64 only. */
__asm__(
	"	.text\n"
	"	.globl	main\n"
	"	.type	main, @function\n"
	"main:\n"
	"	mov	$40, %ecx\n"            /* the number of calls */
	"	.globl	pt_calls_site\n"
	"pt_calls_site:\n"
	"	call	work\n"                 /* direct: no packet */
	"	.globl	pt_calls_back\n"
	"pt_calls_back:\n"
	"	dec	%ecx\n"
	"	jnz	pt_calls_site\n"        /* conditional: a TNT bit */
	"	xor	%eax, %eax\n"
	"	ret\n"
	"	.size	main, . - main\n"
	"	.globl	work\n"
	"	.type	work, @function\n"
	"work:\n"
	"	ret\n"                          /* a TIP (no compression) */
	"	.size	work, . - work\n");
