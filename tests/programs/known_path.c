/* A program whose branches are known for its input: kp_run(n) calls
 * kp_leaf n times in a loop; kp_leaf takes its conditional branch on odd
 * calls; then kp_run calls kp_done. The functions are written in assembly
 * with a global label at every branch and after it, so tests can read the
 * exact addresses from the symbol table and need no disassembler.
 *
 * x86-64: instructions executed from kp_run up to (not including) kp_done,
 * for n calls of which `odd` are odd: 3 + n * (1 + 2) + odd * 4
 * + (n - odd) * 5 + 1 (for n = 5: 41).
 *
 * A64 twin, same labels and path (the link register is saved because kp_run
 * calls): 4 + n * (1 + 2) + odd * 3 + (n - odd) * 4 + 1 (for n = 5: 37).
 *
 * RV64 twin, same labels and path, every instruction 4 bytes (no C
 * extension here, so lengths count as on A64): 5 + n * (1 + 2) + odd * 4
 * + (n - odd) * 5 + 1 (for n = 5: 43).
 * The BTS decoder tests read the x86-64 build of this file as data on every
 * host (tests/programs/CMakeLists.txt: known_path_x86). */
#include <stdio.h>
#include <stdlib.h>

#if defined(__x86_64__)
__asm__(
	".intel_syntax noprefix\n"
	".text\n"
	".globl kp_run, kp_loop, kp_call_site, kp_after_call, kp_jcc\n"
	".globl kp_after_jcc, kp_done_call, kp_after_done_call\n"
	".globl kp_leaf, kp_leaf_jcc, kp_leaf_fall, kp_leaf_ret, kp_done\n"
	".type kp_run, @function\n"
	"kp_run:\n"
	"	mov ecx, edi\n"
	"	xor eax, eax\n"
	"	xor edx, edx\n"
	"kp_loop:\n"
	"kp_call_site:\n"
	"	call kp_leaf\n"
	"kp_after_call:\n"
	"	sub ecx, 1\n"
	"kp_jcc:\n"
	"	jnz kp_loop\n"
	"kp_after_jcc:\n"
	"kp_done_call:\n"
	"	call kp_done\n"
	"kp_after_done_call:\n"
	"	mov eax, edx\n"
	"	ret\n"
	".size kp_run, . - kp_run\n"
	".type kp_leaf, @function\n"
	"kp_leaf:\n"
	"	add eax, 1\n"
	"	test al, 1\n"
	"kp_leaf_jcc:\n"
	"	jnz kp_leaf_ret\n"
	"kp_leaf_fall:\n"
	"	add edx, 1\n"
	"kp_leaf_ret:\n"
	"	ret\n"
	".size kp_leaf, . - kp_leaf\n"
	".type kp_done, @function\n"
	"kp_done:\n"
	"	ret\n"
	".size kp_done, . - kp_done\n"
	".att_syntax prefix\n");
#elif defined(__aarch64__)
__asm__(
	".text\n"
	".globl kp_run, kp_loop, kp_call_site, kp_after_call, kp_jcc\n"
	".globl kp_after_jcc, kp_done_call, kp_after_done_call\n"
	".globl kp_leaf, kp_leaf_jcc, kp_leaf_fall, kp_leaf_ret, kp_done\n"
	".type kp_run, %function\n"
	"kp_run:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov w3, w0\n"
	"	mov w1, #0\n"
	"	mov w2, #0\n"
	"kp_loop:\n"
	"kp_call_site:\n"
	"	bl kp_leaf\n"
	"kp_after_call:\n"
	"	subs w3, w3, #1\n"
	"kp_jcc:\n"
	"	b.ne kp_loop\n"
	"kp_after_jcc:\n"
	"kp_done_call:\n"
	"	bl kp_done\n"
	"kp_after_done_call:\n"
	"	mov w0, w2\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size kp_run, . - kp_run\n"
	".type kp_leaf, %function\n"
	"kp_leaf:\n"
	"	add w1, w1, #1\n"
	"kp_leaf_jcc:\n"
	"	tbnz w1, #0, kp_leaf_ret\n"
	"kp_leaf_fall:\n"
	"	add w2, w2, #1\n"
	"kp_leaf_ret:\n"
	"	ret\n"
	".size kp_leaf, . - kp_leaf\n"
	".type kp_done, %function\n"
	"kp_done:\n"
	"	ret\n"
	".size kp_done, . - kp_done\n");
#elif defined(__riscv) && __riscv_xlen == 64
__asm__(
	".text\n"
	".option push\n"
	".option norvc\n"
	".globl kp_run, kp_loop, kp_call_site, kp_after_call, kp_jcc\n"
	".globl kp_after_jcc, kp_done_call, kp_after_done_call\n"
	".globl kp_leaf, kp_leaf_jcc, kp_leaf_fall, kp_leaf_ret, kp_done\n"
	".type kp_run, @function\n"
	"kp_run:\n"
	"	addi sp, sp, -16\n"
	"	sd ra, 8(sp)\n"
	"	mv a3, a0\n"
	"	li a1, 0\n"
	"	li a2, 0\n"
	"kp_loop:\n"
	"kp_call_site:\n"
	"	jal ra, kp_leaf\n"
	"kp_after_call:\n"
	"	addiw a3, a3, -1\n"
	"kp_jcc:\n"
	"	bnez a3, kp_loop\n"
	"kp_after_jcc:\n"
	"kp_done_call:\n"
	"	jal ra, kp_done\n"
	"kp_after_done_call:\n"
	"	mv a0, a2\n"
	"	ld ra, 8(sp)\n"
	"	addi sp, sp, 16\n"
	"	ret\n"
	".size kp_run, . - kp_run\n"
	".type kp_leaf, @function\n"
	"kp_leaf:\n"
	"	addiw a1, a1, 1\n"
	"	andi t0, a1, 1\n"
	"kp_leaf_jcc:\n"
	"	bnez t0, kp_leaf_ret\n"
	"kp_leaf_fall:\n"
	"	addiw a2, a2, 1\n"
	"kp_leaf_ret:\n"
	"	ret\n"
	".size kp_leaf, . - kp_leaf\n"
	".type kp_done, @function\n"
	"kp_done:\n"
	"	ret\n"
	".size kp_done, . - kp_done\n"
	".option pop\n");
#else
#error "known_path has no twin for this architecture (x86-64, arm64, riscv64)"
#endif

int kp_run(int n);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	if (n < 1)
		n = 1;
	int evens = kp_run(n);
	printf("%d calls, %d even\n", n, evens);
	return 0;
}
