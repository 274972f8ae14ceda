engine-internal-error = Samahani, hitilafu imetokea upande wetu. Tafadhali jaribu tena baada ya muda mfupi.
engine-busy = Samahani, bado ninashughulikia ujumbe wako wa awali. Tafadhali tuma tena.
engine-order-in-flight = Oda yako tayari inashughulikiwa. Tafadhali angalia simu yako kwa ombi la M-Pesa na usithibitishe tena. Ukikatwa pesa bila kupata uthibitisho hapa, andika /help ili kufikia huduma kwa wateja.
engine-order-unconfirmed = Hatukuweza kuthibitisha oda yako ya KSh { $amount }: huduma ya malipo haina rekodi yake, kwa hivyo huenda ombi la M-Pesa halikutumwa kabisa. Timu yetu ya huduma kwa wateja ina maelezo na itafuatilia; ikiwa pesa zilitoka kwenye akaunti yako, watashughulikia jambo hilo pamoja nawe hapa. Unaweza kuanza oda mpya kwa /buy.
engine-order-not-created = Oda yako ya KSh { $amount } haikuundwa: huduma ya malipo haina rekodi yake, kwa hivyo hakuna ombi la M-Pesa lililotumwa na hakuna pesa zilizochukuliwa. Unaweza kuanza oda mpya kwa /buy.
engine-store-down = Samahani, siwezi kupokea ujumbe kwa muda mfupi (hitilafu fupi ya kiufundi). Hakuna kilichofanywa na ujumbe wako wa mwisho; tafadhali utume tena baada ya dakika moja.
