/* Demo, TRISC1: CRC-32 of "123456789" (0xCBF43926, the standard check value) into L1 0x800C. */
#include "ttemu_fw.h"

int main(void) {
    static const char msg[] = "123456789";
    uint32_t crc = 0xFFFFFFFFu;
    for (const char *p = msg; *p; p++) {
        crc ^= (uint8_t)*p;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    }
    L1_WORD(0x800C) = ~crc;
    return 0;
}
