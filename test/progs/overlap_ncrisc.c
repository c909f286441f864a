/* Linked at 0x20000 like every *ncrisc* program: loading it as BRISC together with another
 * *ncrisc* image must be refused as an overlap. */
int main(void) { return 0; }
