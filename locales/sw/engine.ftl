engine-internal-error = Samahani, hitilafu imetokea upande wetu. Tafadhali jaribu tena baada ya muda mfupi.
engine-busy = Samahani, bado ninashughulikia ujumbe wako wa awali. Tafadhali tuma tena.
engine-order-in-flight = Oda yako tayari inashughulikiwa. Tafadhali angalia simu yako kwa ombi la M-Pesa na usithibitishe tena. Ukikatwa pesa bila kupata uthibitisho hapa, andika /help ili kufikia huduma kwa wateja.
