# Maandishi ya chaneli ya WhatsApp (wa-…)

wa-menu-hint = Jibu kwa nambari au neno la chaguo lako.
wa-menu-hint-letters = Jibu kwa herufi au neno la chaguo lako.

wa-text-only = Ninaweza kusoma ujumbe wa maandishi pekee. Tafadhali andika jibu lako, au tuma /start kuanza upya.

wa-number-hidden = Siwezi kuona nambari yako ya simu, na ninaihitaji ili kukutambua na kwa M-Pesa. Tafadhali ruhusu gumzo hili yaone nambari yako (au utuandikie kutoka kwa nambari yako ya simu), kisha tuma "habari" tena.

# Kupitia Cloud API (rasmi): vitufe na orodha halisi.

wa-cloud-choose = Ungependa kufanya nini sasa?
wa-cloud-open-link = Gusa kitufe hapa chini kufungua kiungo.
wa-cloud-list-button = Tazama machaguo
wa-cloud-list-section = Machaguo
wa-cloud-button-stale = Kitufe hicho kiko kwenye ujumbe wa zamani. Tafadhali tumia ujumbe wa karibuni.
